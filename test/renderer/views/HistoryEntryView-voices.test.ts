/**
 * History's entry for voice runs: a clone plays the reference clip it was made from (the blob the
 * run keeps, loaded from the record's media URLs) as a waveform, and shows the voice as the service
 * answered; a failed clone shows the error with the clip still playable.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import HistoryEntryView from '@/views/HistoryEntryView.vue';
import type { Endpoint } from '@shared/contract/runs';
import { mountWithApp, type Mounted } from '../mount-app';
import { makeRecord } from '../fake-data';
import { FakeWaveSurfer } from '../components/audio/fake-wavesurfer';

vi.mock('wavesurfer.js', () => import('../components/audio/fake-wavesurfer'));

let m: Mounted;
afterEach(() => {
  m?.wrapper.unmount();
  document.body.innerHTML = '';
  FakeWaveSurfer.instances = [];
});

const hash = 'ab'.repeat(32);
const cloneRequest = {
  method: 'POST',
  url: 'http://127.0.0.1:4010/v1/custom-voices',
  headers: { 'content-type': 'multipart/form-data' },
  body: {
    multipart: [
      { name: 'name', value: 'My clone' },
      { name: 'gender', value: 'female' },
      { name: 'file', filename: 'me.wav', contentType: 'audio/wav', bytes: 48_000, blob: { $blob: hash, mime: 'audio/wav', encoding: 'base64' } },
    ],
  },
};
const media = { [hash]: { url: `/media/${hash}?t=clip`, expiresAt: null, mime: 'audio/wav', size: 48_000 } };

describe('HistoryEntryView (voice runs)', () => {
  it("plays a clone's reference clip from the run's media and shows the voice it made", async () => {
    const run = makeRecord({
      id: 'run-voice1',
      endpoint: 'voices.create' as Endpoint,
      model: '',
      promptPreview: 'My clone',
      request: cloneRequest,
      media,
      output: { voice_id: 'abcd1234', name: 'My clone', gender: 'female', tone: null } as never,
    });
    m = await mountWithApp(HistoryEntryView, { route: '/history/run-voice1', props: { id: 'run-voice1' }, fake: { history: [run] } });
    await flushPromises();
    const player = FakeWaveSurfer.instances.at(-1);
    expect(player?.options.url).toBe(`/media/${hash}?t=clip`);
    expect(document.querySelector('[data-testid="voice-run-clip"]')).not.toBeNull();
    const text = document.querySelector('[data-testid="voice-run"]')?.textContent ?? '';
    expect(text).toContain('Reference clip · me.wav');
    expect(text).toContain('Voice abcd1234');
    expect(text).toContain('genderfemale');
    expect(text).not.toContain('tone');
  });

  it('says the clip is not kept when the run has no media for it, and shows a failed clone’s error', async () => {
    const run = makeRecord({
      id: 'run-voice2',
      endpoint: 'voices.create' as Endpoint,
      model: '',
      status: 'error',
      request: cloneRequest,
      media: {},
      output: null as never,
      error: { code: 'api_error', status: 400, message: 'The clip could not be decoded.' },
    });
    m = await mountWithApp(HistoryEntryView, { route: '/history/run-voice2', props: { id: 'run-voice2' }, fake: { history: [run] } });
    await flushPromises();
    expect(FakeWaveSurfer.instances).toHaveLength(0);
    const text = document.querySelector('[data-testid="voice-run"]')?.textContent ?? '';
    expect(text).toContain('The clip (me.wav) is not kept with this run.');
    expect(text).toContain('The clip could not be decoded.');
  });
});
