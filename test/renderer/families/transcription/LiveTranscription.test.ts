/**
 * The live microphone panel as a user reads it, with the fake workbench: interim words apart
 * from finals, and each way a session can end badly explained in the panel — the service's
 * socket closed mid-utterance (the transcript so far kept, said so), the page's microphone
 * refused (said, the session stopped).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import type { LiveTranscriptionSnapshot } from '@shared/live-transcription';
import { mountWithApp, type Mounted } from '../../mount-app';

vi.mock('@/bridge/media', () => ({ mediaChannel: () => ({ onFrame: () => () => undefined, send: () => undefined }) }));
const capture = vi.hoisted(() => ({ start: vi.fn() }));
vi.mock('@/audio/page-capture', () => ({ PageCapture: { start: capture.start } }));
const { default: LiveTranscription } = await import('@/families/transcription/live/LiveTranscription.vue');
const { useLiveTranscriptionStore } = await import('@/families/transcription/live/live-transcription-store');

let m: Mounted;
afterEach(() => {
  m?.wrapper.unmount();
  capture.start.mockReset();
  window.sessionStorage.clear();
});

function snapshot(over: Partial<LiveTranscriptionSnapshot> = {}): LiveTranscriptionSnapshot {
  return {
    status: 'listening',
    source: { kind: 'native' },
    sampleRate: 16_000,
    audioChannels: 1,
    muted: false,
    streams: { mic: -1, levels: -1 },
    channels: [
      {
        channel: 0,
        finals: [
          {
            text: 'hello there',
            start: 0,
            duration: 1,
            speaker: null,
            words: [
              { text: 'hello', start: 0, end: 0.4, confidence: 0.9, speaker: null },
              { text: 'there', start: 0.5, end: 1, confidence: 0.8, speaker: null },
            ],
            utterance: true,
          },
        ],
        interim: null,
        doneDuration: null,
      },
    ],
    droppedSegments: 0,
    runId: 'live_run1',
    end: null,
    errors: [],
    ...over,
  };
}

/** Mounts the panel and makes `start` give sessions that begin at `first`. */
async function mountPanel(first: LiveTranscriptionSnapshot): Promise<void> {
  m = await mountWithApp(LiveTranscription, { route: '/transcription' });
  const start = m.fake.live.start;
  m.fake.live.start = async (req) => {
    const started = await start(req);
    m.fake.controls.live.sessions.get(started.id)!.snapshot = first;
    return started;
  };
}

const text = (sel: string) => [...document.querySelectorAll(sel)].map((e) => e.textContent!.trim());

describe('LiveTranscription panel', () => {
  it("draws the microphone's level in the shared level meter (-60..0 dBFS across the bar)", async () => {
    await mountPanel(snapshot());
    const meter = () => m.wrapper.find('[role="meter"]');
    expect(meter().attributes('aria-label')).toBe('Microphone level');
    expect((meter().find('.meter-fill').element as HTMLElement).style.width).toBe('0%');
    useLiveTranscriptionStore().levelDbfs = -30;
    await flushPromises();
    expect(meter().attributes('aria-valuenow')).toBe('-30');
    expect(parseFloat((meter().find('.meter-fill').element as HTMLElement).style.width)).toBeCloseTo(50, 5);
  });

  it('shows interim words apart from finals; a socket closed mid-utterance is said, the transcript kept', async () => {
    await mountPanel(snapshot());
    m.wrapper.find('[data-test="live-start"]').trigger('click');
    await flushPromises();
    const id = [...m.fake.controls.live.sessions.keys()][0]!;
    m.fake.controls.live.emit(id, { type: 'interim', channel: 0, text: 'and then' });
    await flushPromises();
    // Words read as words: spaced apart (not "hellothere"), each with its timing and confidence on hover.
    expect(text('[data-test="live-final"]')).toEqual(['hello there']);
    expect(document.querySelector('[data-test="live-final"] span')?.getAttribute('title')).toBe('0.00–0.40 s, confidence 90 %');
    expect(text('[data-test="live-interim"]')).toEqual(['and then']);
    expect(document.querySelector('[data-test="live-interim"]')!.classList.contains('final')).toBe(false);

    const why = 'The connection closed mid-utterance; the transcript so far is kept.';
    m.fake.controls.live.emit(id, { type: 'status', status: 'failed', end: { incomplete: true, message: why } });
    await flushPromises();
    expect(document.querySelector('[data-test="live-incomplete"]')?.textContent).toBe(why);
    expect(document.querySelector('[data-test="live-status"]')?.textContent).toBe('failed');
    expect(text('[data-test="live-final"]')).toEqual(['hello there']);
    expect(text('[data-test="live-interim"]')).toEqual(['and then']);
    expect(m.wrapper.find('[data-test="live-start"]').exists()).toBe(true); // a new session can start
  });

  it("a refused page microphone is said in the panel and the session stopped", async () => {
    const refused = 'Microphone access was refused. Allow it for this app (the browser or system settings), then try again.';
    capture.start.mockResolvedValue({ ok: false, error: { code: 'denied', message: refused } });
    await mountPanel(snapshot({ source: { kind: 'page' }, streams: { mic: 2, levels: -1 } }));
    m.wrapper.find('[data-test="live-start"]').trigger('click');
    await flushPromises();
    await vi.waitFor(() => expect(m.fake.controls.live.sessions.size).toBe(0));
    await flushPromises();
    // Titled for where it happened (not "Request failed": no request failed).
    expect(document.querySelector('.error-title')?.textContent).toBe(`Live microphone: ${refused} The session was stopped; the transcript so far is kept.`);
    expect(text('[data-test="live-final"]')).toEqual(['hello there']);
  });
});
