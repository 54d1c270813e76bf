import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { provideWorkbench } from '@/api';
import { LIVE_TRANSCRIPTION_KEY, useLiveTranscriptionStore } from '@/families/transcription/live/live-transcription-store';
import { useLiveSessionsStore } from '@/stores/live-sessions';
import type { LiveTranscriptionEvent, LiveTranscriptionSnapshot } from '@shared/live-transcription';
import { createFakeWorkbench, type FakeWorkbench } from '../../fake-workbench';

// The page's media channel (bridge/media.ts) would open the real bridge: frames are not under test here.
vi.mock('@/bridge/media', () => ({ mediaChannel: () => ({ onFrame: () => () => undefined, send: () => undefined }) }));
// The page's microphone: each test says how getUserMedia went (happy-dom has no audio).
const capture = vi.hoisted(() => ({ start: vi.fn() }));
vi.mock('@/audio/page-capture', () => ({ PageCapture: { start: capture.start } }));

let fake: FakeWorkbench;
const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  capture.start.mockReset();
  window.sessionStorage.clear();
  fake = createFakeWorkbench();
  provideWorkbench(fake);
  setActivePinia(createPinia());
});

/** What main's live kind would hold after one utterance (no media streams: no frame channel in happy-dom). */
function snapshot(): LiveTranscriptionSnapshot {
  return {
    status: 'listening',
    source: { kind: 'native' },
    sampleRate: 16_000,
    audioChannels: 1,
    muted: false,
    streams: { mic: -1, levels: -1 },
    channels: [{ channel: 0, finals: [{ text: 'hello there', start: 0, duration: 1, speaker: null, words: [], utterance: true }], interim: null, doneDuration: null }],
    droppedSegments: 0,
    runId: 'live_1',
    end: null,
    errors: [],
  };
}

describe('live transcription store', () => {
  it('starts a session of the transcription kind with the query and source', async () => {
    const store = useLiveTranscriptionStore();
    await store.start({ sample_rate: 16_000, interim_results: true }, { kind: 'native', device: 'hw:1' });
    expect(store.error).toBeNull();
    const [session] = [...fake.controls.live.sessions.values()];
    expect(session.summary.kind).toBe('transcription');
    expect(window.sessionStorage.getItem(LIVE_TRANSCRIPTION_KEY)).toBe(session.summary.id);
  });

  it("captures the page's microphone with as many channels as the session carries (stereo: interleaved, a column per channel)", async () => {
    capture.start.mockResolvedValue({ ok: true, value: { dispose: async () => undefined } });
    const first = useLiveTranscriptionStore();
    await first.start({ sample_rate: 16_000, channels: 2 }, { kind: 'page' });
    const id = first.sessionId!;
    fake.controls.live.sessions.get(id)!.snapshot = { ...snapshot(), source: { kind: 'page' }, audioChannels: 2, streams: { mic: 3, levels: -1 } };
    setActivePinia(createPinia());
    useLiveSessionsStore().restore();
    await turn();
    const store = useLiveTranscriptionStore();
    store.restore();
    await turn();
    await turn();
    expect(capture.start).toHaveBeenCalledTimes(1);
    expect(capture.start.mock.calls[0]![0]).toMatchObject({ sampleRate: 16_000, channels: 2 });
  });

  it('captures the page microphone the user picked, and the same one again after a reload (its id is in the session)', async () => {
    capture.start.mockResolvedValue({ ok: true, value: { dispose: async () => undefined } });
    const first = useLiveTranscriptionStore();
    await first.start({ sample_rate: 16_000 }, { kind: 'page', device: 'mic-usb' });
    const id = first.sessionId!;
    const session = fake.controls.live.sessions.get(id)!;
    expect((session.input as { source: unknown }).source).toEqual({ kind: 'page', device: 'mic-usb' });
    session.snapshot = { ...snapshot(), source: { kind: 'page', device: 'mic-usb' }, streams: { mic: 3, levels: -1 } };
    setActivePinia(createPinia());
    useLiveSessionsStore().restore();
    await turn();
    useLiveTranscriptionStore().restore();
    await turn();
    await turn();
    expect(capture.start).toHaveBeenCalledTimes(1);
    expect(capture.start.mock.calls[0]![0]).toMatchObject({ deviceId: 'mic-usb' });
  });

  it('after a reload shows the transcript so far from the snapshot and goes on with the events: interim, then final', async () => {
    const first = useLiveTranscriptionStore();
    await first.start({ sample_rate: 16_000 }, { kind: 'native' });
    const id = first.sessionId!;
    fake.controls.live.sessions.get(id)!.snapshot = snapshot();

    // The reload: new stores; the live-sessions store re-attaches first (App start-up), then the panel mounts.
    setActivePinia(createPinia());
    useLiveSessionsStore().restore();
    await turn(); // the snapshot has arrived before the panel mounts
    const store = useLiveTranscriptionStore();
    store.restore();
    await turn();
    expect(store.sessionId).toBe(id);
    expect(store.state?.channels[0].finals.map((f) => f.text)).toEqual(['hello there']);

    const emit = (event: LiveTranscriptionEvent) => fake.controls.live.emit(id, event);
    emit({ type: 'interim', channel: 0, text: 'how are' });
    expect(store.state?.channels[0].interim).toBe('how are');
    emit({ type: 'final', channel: 0, segment: { text: 'how are you', start: 1.5, duration: 1, speaker: null, words: [], utterance: true } });
    expect(store.state?.channels[0].interim).toBeNull();
    expect(store.state?.channels[0].finals.map((f) => f.text)).toEqual(['hello there', 'how are you']);
    emit({ type: 'status', status: 'ended', end: { incomplete: true, message: 'The connection closed mid-utterance; the transcript so far is kept.' } });
    expect(store.state?.status).toBe('ended');
    expect(store.state?.end?.incomplete).toBe(true);
  });

  it('a refused page microphone is explained and the session stopped (it would record silence), the transcript so far kept', async () => {
    const refused = 'Microphone access was refused. Allow it for this app (the browser or system settings), then try again.';
    capture.start.mockResolvedValue({ ok: false, error: { code: 'denied', message: refused } });
    // main's snapshot for a page-microphone session: its `mic` stream is where the page's frames go.
    const start = fake.live.start;
    fake.live.start = async (req) => {
      const started = await start(req);
      fake.controls.live.sessions.get(started.id)!.snapshot = { ...snapshot(), source: { kind: 'page' }, streams: { mic: 3, levels: -1 } };
      return started;
    };
    const store = useLiveTranscriptionStore();
    await store.start({ sample_rate: 16_000 }, { kind: 'page' });
    const id = store.sessionId!;
    await vi.waitFor(() => expect(fake.controls.live.sessions.has(id)).toBe(false)); // stopped in main
    expect(capture.start).toHaveBeenCalledTimes(1);
    expect(store.error?.message).toBe(`${refused} The session was stopped; the transcript so far is kept.`);
    expect(store.state?.channels[0].finals.map((f) => f.text)).toEqual(['hello there']);
  });

  it('a page microphone unplugged mid-stream is explained and the session stopped', async () => {
    let onError: ((e: { code: string; message: string }) => void) | undefined;
    const dispose = vi.fn(async () => undefined);
    capture.start.mockImplementation(async (options: { onError: typeof onError }) => {
      onError = options.onError;
      return { ok: true, value: { dispose } };
    });
    const start = fake.live.start;
    fake.live.start = async (req) => {
      const started = await start(req);
      fake.controls.live.sessions.get(started.id)!.snapshot = { ...snapshot(), source: { kind: 'page' }, streams: { mic: 3, levels: -1 } };
      return started;
    };
    const store = useLiveTranscriptionStore();
    await store.start({ sample_rate: 16_000 }, { kind: 'page' });
    const id = store.sessionId!;
    await vi.waitFor(() => expect(onError).toBeDefined());
    expect(store.error).toBeNull();
    onError!({ code: 'device_lost', message: 'The microphone was unplugged' });
    await vi.waitFor(() => expect(fake.controls.live.sessions.has(id)).toBe(false));
    expect(dispose).toHaveBeenCalledTimes(1);
    expect(store.error?.message).toBe('The microphone was unplugged. The session was stopped; the transcript so far is kept.');
  });
});
