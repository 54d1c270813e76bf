/**
 * Barge-in: speech during a response cancels it in server VAD mode (and only then), naming the
 * item cut and how much of its audio had gone out.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { audioMs, ResponseTracker } from '../../../../../../main/sandbox/realtime/turns/barge-in';
import { DEFAULT_SERVER_VAD, TurnDetector } from '../../../../../../main/sandbox/realtime/turns/turn-detector';
import { chunks, concat, silence, speakAt } from './audio';

const cancelled = { status: 'cancelled', statusDetails: { type: 'cancelled', reason: 'turn_detected' } };

describe('ResponseTracker', () => {
  it('cancels a response in flight on speech in server VAD mode, with the audio sent of its item', () => {
    const t = new ResponseTracker();
    t.started('resp_1');
    t.audioSent('item_a', 200);
    t.audioSent('item_a', 40);
    expect(t.sentMs('item_a')).toBe(240);
    expect(t.speechStarted('server_vad')).toEqual({ type: 'cancel_response', responseId: 'resp_1', itemId: 'item_a', audioSentMs: 240, ...cancelled });
    // Cancelled once: the response is over.
    expect(t.inProgress).toBe(false);
    expect(t.speechStarted('server_vad')).toBeNull();
  });

  it('counts the last item spoken when a response speaks two, and none before any audio', () => {
    const t = new ResponseTracker();
    t.started('resp_2');
    expect(t.speechStarted('server_vad')).toMatchObject({ responseId: 'resp_2', itemId: null, audioSentMs: 0 });
    t.started('resp_3');
    t.audioSent('item_a', 500);
    t.audioSent('item_b', 120);
    expect(t.speechStarted('server_vad')).toMatchObject({ responseId: 'resp_3', itemId: 'item_b', audioSentMs: 120 });
  });

  it('decides nothing in manual mode, with no response, or after response.done', () => {
    const t = new ResponseTracker();
    expect(t.speechStarted('server_vad')).toBeNull();
    t.started('resp_1');
    t.audioSent('item_a', 100);
    expect(t.speechStarted('manual')).toBeNull();
    expect(t.inProgress).toBe(true);
    t.finished('resp_0');
    expect(t.inProgress).toBe(true);
    t.finished('resp_1');
    expect(t.speechStarted('server_vad')).toBeNull();
  });

  it('converts output bytes to milliseconds per format', () => {
    expect(audioMs(48_000, { type: 'audio/pcm', rate: 24_000 })).toBe(1000);
    expect(audioMs(160, { type: 'audio/pcmu' })).toBe(20);
    expect(audioMs(320, { type: 'audio/pcm', rate: 8000 })).toBe(20);
  });
});

describe('barge-in on real speech', () => {
  let detector: TurnDetector | null = null;
  afterEach(() => detector?.dispose());

  it('cuts the response where the caller started talking (audio paced with the input)', async () => {
    const rate = 24_000;
    const speechAtMs = 1200;
    const input = concat(silence(speechAtMs, rate), speakAt('Wait, stop, I have a question.', rate), silence(800, rate));
    detector = await TurnDetector.create({ sampleRate: rate, vad: DEFAULT_SERVER_VAD, newItemId: () => 'item_user' });
    const tracker = new ResponseTracker();
    tracker.started('resp_1');
    // The model speaks from the start, 20 ms of its audio for each 20 ms of the caller's.
    const decisions = [];
    for (const c of chunks(input, rate, 20)) {
      if (tracker.inProgress) tracker.audioSent('item_model', 20);
      for (const e of detector.push(c)) {
        if (e.type === 'speech_started') decisions.push({ e, cut: tracker.speechStarted(detector.mode) });
      }
    }
    expect(decisions).toHaveLength(1);
    const [{ e, cut }] = decisions;
    if (e.type !== 'speech_started' || !cut) throw new Error('no barge-in');
    expect(cut).toMatchObject({ responseId: 'resp_1', itemId: 'item_model', ...cancelled });
    // The detector needs two loud frames: the cut lands within 40 ms of the onset it reports,
    // and no audio was counted after it.
    expect(cut.audioSentMs).toBeGreaterThanOrEqual(e.speechStartMs);
    expect(cut.audioSentMs - e.speechStartMs).toBeLessThanOrEqual(60);
    expect(Math.abs(e.speechStartMs - speechAtMs)).toBeLessThanOrEqual(20);
    expect(tracker.sentMs('item_model')).toBe(0);
  });
});
