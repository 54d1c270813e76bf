// The live transcription panel picks its microphone with AudioDevicePicker: a native device
// chosen there is what the live session is started with (the media process captures it).
import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import LiveTranscription from '@/families/transcription/live/LiveTranscription.vue';
import { button, mountWithApp, type Mounted } from '../../mount-app';

let m: Mounted;
afterEach(() => m?.wrapper.unmount());

async function startWith(value: string | null): Promise<unknown> {
  m = await mountWithApp(LiveTranscription);
  await flushPromises();
  const inputs: unknown[] = [];
  const start = m.fake.live.start;
  m.fake.live.start = async (input) => (inputs.push(input), start(input));
  const select = document.querySelector('select[data-test="audio-device-picker"]') as HTMLSelectElement;
  expect(select.labels?.[0]?.textContent).toBe('Microphone');
  if (value !== null) {
    select.value = value;
    select.dispatchEvent(new Event('change'));
    await flushPromises();
  }
  button(m.wrapper, 'Start').click();
  await flushPromises();
  return inputs[0];
}

describe('live transcription panel: microphone picker', { timeout: 30_000 }, () => {
  it('starts on the native device picked', async () => {
    expect(await startWith('native:ALSA:USB Mic')).toMatchObject({ kind: 'transcription', input: { source: { kind: 'native', device: 'ALSA:USB Mic' } } });
  });

  it('starts on the system default native microphone', async () => {
    expect(await startWith('native:')).toMatchObject({ kind: 'transcription', input: { source: { kind: 'native' } } });
  });

  it('starts on this page’s microphone by default', async () => {
    expect(await startWith(null)).toMatchObject({ kind: 'transcription', input: { source: { kind: 'page' } } });
  });
});
