/**
 * The live panel's sources: a WAV file chosen as the microphone (the `file` source, for testing
 * without a device) in stereo starts the session with `channels: 2` and the file's reference; the
 * page's microphone in stereo asks for two channels; a native device stays mono.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import LiveTranscription from '@/families/transcription/live/LiveTranscription.vue';
import { mountWithApp, type Mounted } from '../../mount-app';

vi.mock('@/bridge/media', () => ({ mediaChannel: () => ({ onFrame: () => () => undefined, send: () => undefined }) }));

let m: Mounted;
afterEach(() => {
  m?.wrapper.unmount();
  document.body.innerHTML = '';
  window.sessionStorage.clear();
});

function button(label: string): HTMLElement {
  const found = [...document.querySelectorAll<HTMLElement>('button, [role="radio"], .p-togglebutton')].find((b) => b.textContent?.trim() === label);
  if (!found) throw new Error(`no button ${label}`);
  return found;
}

describe('LiveTranscription panel', () => {
  it('plays a chosen WAV as the microphone, in stereo: the session gets the file reference and two channels', async () => {
    m = await mountWithApp(LiveTranscription, { route: '/transcription', props: { query: { sample_rate: 16_000, interim_results: true } } });
    m.fake.userFiles.pick = async () => [{ ref: 'ref_abcdefghijklmnop12', name: 'two-voices-stereo.wav', size: 1000, type: 'audio/wav' }] as never;
    button('Use a WAV file (test)…').click();
    await flushPromises();
    expect(document.querySelector('[data-test="live-file"]')?.textContent).toContain('two-voices-stereo.wav');
    button('Stereo (a column per channel)').click();
    await flushPromises();
    (document.querySelector('[data-test="live-start"]') as HTMLElement).click();
    await flushPromises();
    const [session] = [...m.fake.controls.live.sessions.values()];
    expect(session?.input).toEqual({ query: { sample_rate: 16_000, interim_results: true, channels: 2 }, source: { kind: 'file', ref: 'ref_abcdefghijklmnop12', speed: 1 } });
  });

  it("asks for two channels from the page's microphone in stereo, and one from a native device", async () => {
    m = await mountWithApp(LiveTranscription, { route: '/transcription', props: { query: { sample_rate: 16_000 } } });
    button('Stereo (a column per channel)').click();
    await flushPromises();
    (document.querySelector('[data-test="live-start"]') as HTMLElement).click();
    await flushPromises();
    expect([...m.fake.controls.live.sessions.values()].at(-1)?.input).toEqual({ query: { sample_rate: 16_000, channels: 2 }, source: { kind: 'page' } });
  });
});
