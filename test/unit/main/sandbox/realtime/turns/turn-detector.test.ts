/**
 * Server VAD on real speech (eSpeak NG) with known silences: the events, their order, their
 * milliseconds counted on the audio (checked against ffmpeg's silencedetect, within one 10 ms
 * frame), the committed audio (prefix padding included, sample-exact), and manual mode.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { encodeMulaw } from '../../../../../../shared/audio';
import { InputDecoder } from '../../../../../../main/sandbox/realtime/turns/input-audio';
import { DEFAULT_SERVER_VAD, TurnDetector, type ServerVadConfig, type TurnEvent } from '../../../../../../main/sandbox/realtime/turns/turn-detector';
import { createHash } from 'node:crypto';
import { chunks, concat, gain, sameSamples, silence, speakAt, speechRuns } from './audio';

const FRAME = 10;
const detectors: TurnDetector[] = [];
afterEach(() => {
  for (const d of detectors.splice(0)) d.dispose();
});

async function detector(rate: number, vad: ServerVadConfig | null = DEFAULT_SERVER_VAD, maxTurnMs?: number): Promise<TurnDetector> {
  let n = 0;
  const d = await TurnDetector.create({ sampleRate: rate, vad, newItemId: () => `item_${++n}`, maxTurnMs });
  detectors.push(d);
  return d;
}

function feed(d: TurnDetector, pcm: Int16Array, rate: number, ms = 20): TurnEvent[] {
  return chunks(pcm, rate, ms).flatMap((c) => d.push(c));
}

/** Events with the committed audio as a hash, for fast comparison. */
const comparable = (events: TurnEvent[]) =>
  events.map((e) => (e.type === 'committed' ? { ...e, audio: createHash('sha256').update(e.audio).digest('hex') } : e));
const summary = (events: TurnEvent[]) => events.map((e) => `${e.type}:${e.itemId}`);

const rate24 = 24_000;
const first = speakAt('Hello there, this is a test of the turn detector.', rate24);
const second = speakAt('And a second sentence.', rate24);
// 1 s silence, speech, 1.5 s silence, speech, 1.5 s silence.
const dialogue = concat(silence(1000, rate24), first, silence(1500, rate24), second, silence(1500, rate24));
const truth = speechRuns(dialogue, rate24);

describe('TurnDetector (server VAD)', () => {
  it('finds both turns where ffmpeg hears speech, within one frame, and commits the padded audio', async () => {
    expect(truth).toHaveLength(2);
    const d = await detector(rate24);
    const events = feed(d, dialogue, rate24);
    expect(summary(events)).toEqual([
      'speech_started:item_1',
      'speech_stopped:item_1',
      'committed:item_1',
      'speech_started:item_2',
      'speech_stopped:item_2',
      'committed:item_2',
    ]);
    for (const [turn, [startMs, endMs]] of truth.entries()) {
      const [started, stopped, committed] = events.slice(turn * 3, turn * 3 + 3);
      if (started.type !== 'speech_started' || stopped.type !== 'speech_stopped' || committed.type !== 'committed') throw new Error('order');
      expect(Math.abs(started.speechStartMs - startMs), `turn ${turn} start ${started.speechStartMs} vs ${startMs}`).toBeLessThanOrEqual(FRAME);
      expect(Math.abs(stopped.speechEndMs - endMs), `turn ${turn} end ${stopped.speechEndMs} vs ${endMs}`).toBeLessThanOrEqual(FRAME);
      // Wire times: padding before, the silence duration after.
      expect(started.audioStartMs).toBe(started.speechStartMs - DEFAULT_SERVER_VAD.prefixPaddingMs);
      expect(stopped.audioEndMs).toBe(stopped.speechEndMs + DEFAULT_SERVER_VAD.silenceDurationMs);
      expect(committed.audioStartMs).toBe(started.audioStartMs);
      expect(committed.audioEndMs).toBe(stopped.audioEndMs);
      // The committed audio is exactly that stretch of what was appended.
      const from = Math.round((committed.audioStartMs * rate24) / 1000);
      const to = Math.round((committed.audioEndMs * rate24) / 1000);
      expect(committed.sampleRate).toBe(rate24);
      expect(sameSamples(committed.audio, dialogue.slice(from, to))).toBe(true);
    }
    expect(d.inSpeech).toBe(false);
    expect(d.positionMs).toBe(Math.round((dialogue.length / rate24) * 1000));
  });

  it('counts audio, not calls: one big append and 20 ms appends give the same events', async () => {
    const byFrames = feed(await detector(rate24), dialogue, rate24, 20);
    const whole = (await detector(rate24)).push(dialogue);
    const odd = feed(await detector(rate24), dialogue, rate24, 37);
    expect(byFrames).toHaveLength(6);
    expect(comparable(whole)).toEqual(comparable(byFrames));
    expect(comparable(odd)).toEqual(comparable(byFrames));
  });

  it('hears G.711 µ-law at 8 kHz decoded from the wire at the same times', async () => {
    const rate8 = 8000;
    const pcm = concat(silence(1000, rate8), speakAt('Hello there, this is a test of the turn detector.', rate8), silence(1500, rate8));
    const runs = speechRuns(pcm, rate8);
    const wire = new InputDecoder({ type: 'audio/pcmu' });
    const d = await detector(wire.rate);
    const events = chunks(pcm, rate8, 20).flatMap((c) => d.push(wire.decodeBase64(Buffer.from(encodeMulaw(c)).toString('base64'))));
    const started = events.find((e) => e.type === 'speech_started');
    const stopped = events.find((e) => e.type === 'speech_stopped');
    if (started?.type !== 'speech_started' || stopped?.type !== 'speech_stopped') throw new Error(`events: ${summary(events)}`);
    expect(runs).toHaveLength(1);
    // µ-law's quantisation noise is louder than PCM's silence floor: allow two frames.
    expect(Math.abs(started.speechStartMs - runs[0][0])).toBeLessThanOrEqual(2 * FRAME);
    expect(Math.abs(stopped.speechEndMs - runs[0][1])).toBeLessThanOrEqual(2 * FRAME);
    expect(summary(events)).toEqual(['speech_started:item_1', 'speech_stopped:item_1', 'committed:item_1']);
  });

  it('keeps one turn across a pause shorter than silence_duration_ms and splits it at a longer one', async () => {
    const pcm = concat(silence(500, rate24), first, silence(400, rate24), second, silence(1200, rate24));
    const long = feed(await detector(rate24, { ...DEFAULT_SERVER_VAD, silenceDurationMs: 800 }), pcm, rate24);
    expect(summary(long)).toEqual(['speech_started:item_1', 'speech_stopped:item_1', 'committed:item_1']);
    const short = feed(await detector(rate24, { ...DEFAULT_SERVER_VAD, silenceDurationMs: 200 }), pcm, rate24);
    expect(short.filter((e) => e.type === 'speech_started')).toHaveLength(2);
  });

  it('maps threshold onto loudness: quiet speech starts a turn at 0.1, not at 0.9', async () => {
    // About -38 dBFS at its loudest 10 ms: above the 0.1 gate (-56.5), below the 0.9 gate (-28.5).
    const quiet = concat(silence(500, rate24), gain(first, -22), silence(1000, rate24));
    const low = feed(await detector(rate24, { ...DEFAULT_SERVER_VAD, threshold: 0.1 }), quiet, rate24);
    expect(summary(low)).toEqual(['speech_started:item_1', 'speech_stopped:item_1', 'committed:item_1']);
    const high = feed(await detector(rate24, { ...DEFAULT_SERVER_VAD, threshold: 0.9 }), quiet, rate24);
    expect(high).toEqual([]);
  });

  it('never pads back before the audio began or before a clear', async () => {
    const early = concat(silence(100, rate24), second, silence(800, rate24));
    const [started] = feed(await detector(rate24), early, rate24);
    if (started?.type !== 'speech_started') throw new Error('no speech');
    expect(started.audioStartMs).toBe(0);

    const d = await detector(rate24);
    feed(d, silence(1000, rate24), rate24);
    d.clear();
    const events = feed(d, concat(second, silence(800, rate24)), rate24);
    const s = events[0];
    const c = events[2];
    if (s?.type !== 'speech_started' || c?.type !== 'committed') throw new Error(`events: ${summary(events)}`);
    expect(s.audioStartMs).toBe(1000);
    expect(c.audio.length).toBe(Math.round(((c.audioEndMs - 1000) * rate24) / 1000));
  });

  it('cuts a turn that never falls silent at maxTurnMs and goes on detecting', async () => {
    // Speech with pauses shorter than the silence duration: one endless turn.
    const talk = concat(first, silence(200, rate24), first, silence(200, rate24), first, silence(1000, rate24));
    const events = feed(await detector(rate24, { ...DEFAULT_SERVER_VAD, silenceDurationMs: 800 }, 4000), talk, rate24);
    expect(summary(events).slice(0, 4)).toEqual(['speech_started:item_1', 'speech_stopped:item_1', 'committed:item_1', 'speech_started:item_2']);
    const [started, stopped, committed] = events;
    if (started.type !== 'speech_started' || stopped.type !== 'speech_stopped' || committed.type !== 'committed') throw new Error('order');
    expect(stopped.audioEndMs - started.audioStartMs).toBe(4000);
    expect(committed.audio.length).toBe(4 * rate24);
    // The next turn starts where the cut one ended.
    const next = events[3];
    expect(next.type === 'speech_started' && next.audioStartMs).toBe(stopped.audioEndMs);
  });

  it('holds only the prefix padding through a long silence', async () => {
    const d = await detector(16_000);
    for (let i = 0; i < 600; i++) d.push(silence(100, 16_000));
    // Sixty seconds later, a manual commit sees only what was kept: the padding and a little more.
    d.configure(null);
    const c = d.commit();
    if ('code' in c) throw new Error(c.message);
    expect(c.audio.length).toBeLessThanOrEqual(16 * (DEFAULT_SERVER_VAD.prefixPaddingMs + 200));
    expect(c.audioEndMs).toBe(60_000);
  });
});

describe('TurnDetector (manual, turn_detection null)', () => {
  it('emits nothing on speech and commits everything since the last commit', async () => {
    const d = await detector(rate24, null);
    expect(feed(d, dialogue, rate24)).toEqual([]);
    const c = d.commit();
    if ('code' in c) throw new Error(c.message);
    expect(c.itemId).toBe('item_1');
    expect(sameSamples(c.audio, dialogue)).toBe(true);
    expect([c.audioStartMs, c.audioEndMs]).toEqual([0, Math.round((dialogue.length / rate24) * 1000)]);
    d.push(first);
    const next = d.commit();
    if ('code' in next) throw new Error(next.message);
    expect(sameSamples(next.audio, first)).toBe(true);
    expect(next.audioStartMs).toBe(c.audioEndMs);
  });

  it('refuses an empty commit and one after clear, with a code', async () => {
    const d = await detector(rate24, null);
    expect(d.commit()).toMatchObject({ code: 'input_audio_buffer_commit_empty' });
    d.push(first);
    d.clear();
    const r = d.commit();
    expect(r).toMatchObject({ code: 'input_audio_buffer_commit_empty' });
    expect('message' in r && r.message).toMatch(/at least 100 ms/);
  });
});

describe('InputDecoder', () => {
  it('carries an odd byte of PCM into the next append', () => {
    const dec = new InputDecoder({ type: 'audio/pcm', rate: 24_000 });
    const bytes = Buffer.from(new Int16Array([1000, -2000, 3000]).buffer);
    const a = dec.decode(bytes.subarray(0, 3));
    const b = dec.decode(bytes.subarray(3));
    expect([...a, ...b]).toEqual([1000, -2000, 3000]);
    expect(new InputDecoder({ type: 'audio/pcma' }).rate).toBe(8000);
  });
});
