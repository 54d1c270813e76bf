// Speech's native output end to end: the sandbox synthesises (through the app's own handlers),
// main hands each piece of audio to the media process's `speech-output` session as it arrives,
// and the media process decodes it and plays it through main/audio's Playback on ALSA's `file`
// device. What lands in the file must be the decoded speech, resampled to the device's 48 kHz
// stereo. The file device is not paced: values and order are checked, never timing.
import { rmSync } from 'node:fs';
import { MPEGDecoder } from 'mpg123-decoder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeMulaw } from '../../shared/audio/g711';
import { float32ToInt16 } from '../../shared/audio/pcm';
import { SpeechFieldsSchema, type SpeechRunChunk } from '../../shared/families/speech/contract';
import { Resampler } from '../../shared/audio/resampler';
import { startSpeechOutputHarness, type SpeechOutputHarness } from './speech-output-harness';

const TEXT = 'Speech plays through the chosen output device, one piece at a time.';

let s: SpeechOutputHarness;
beforeAll(async () => {
  s = await startSpeechOutputHarness();
}, 60_000);
afterAll(() => s?.close());

/** Mono at `rate` -> what the file device holds: 48 kHz, both channels the same. */
function asPlayed(mono: Int16Array, rate: number): Int16Array {
  const r = new Resampler(rate, 48000, 1);
  const at48 = new Int16Array([...r.push(mono), ...r.flush()]);
  const out = new Int16Array(at48.length * 2);
  for (let i = 0; i < at48.length; i++) out[i * 2] = out[i * 2 + 1] = at48[i];
  return out;
}

function pcm16(bytes: Uint8Array): Int16Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Int16Array.from({ length: bytes.byteLength >> 1 }, (_, i) => view.getInt16(i * 2, true));
}

const nonZero = (a: Int16Array): Int16Array => a.filter((v) => v !== 0);

describe('speech through the native output (media process, ALSA file device)', () => {
  it('plays the WebSocket stream\'s audio.delta chunks as they arrive: the file holds the decoded PCM, in order, nothing lost', async () => {
    rmSync(s.playedFile, { force: true });
    const spoken = await s.speak('stream', { text: TEXT, codec: 'pcm', sampleRate: 24000 }, { codec: 'pcm', sampleRate: 24000 });
    expect(spoken.done).toMatchObject({ stopped: false });
    expect(spoken.done.error).toBeUndefined();
    const expected = asPlayed(pcm16(spoken.audio), 24000);
    expect(expected.length).toBeGreaterThan(48000); // over half a second of speech
    const played = s.played();
    // The device plays silence while it waits for audio (before the first delta, and if a delta is
    // late): the speech itself, without those zeros, must be exactly the decoded stream.
    expect(nonZero(played)).toEqual(nonZero(expected));
    // The ms heard the session reports is the speech's length.
    expect(spoken.done.playedMs).toBeCloseTo((expected.length / 2 / 48), 0);
    const kinds = spoken.events.map((e) => e.type);
    expect(kinds[0]).toBe('opened');
    expect(kinds).toContain('first-write');
    expect(kinds.at(-1)).toBe('done');
    // Progress only moves forward and ends at the ms heard.
    const progress = spoken.events.flatMap((e) => (e.type === 'progress' ? [e.playedMs] : []));
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(Math.round(spoken.done.playedMs));
  }, 90_000);

  it('plays REST\'s whole MP3 decoded by mpg123: the file holds exactly the decoded samples after the leading silence', async () => {
    rmSync(s.playedFile, { force: true });
    const spoken = await s.speak('rest', { text: TEXT, codec: 'mp3', sampleRate: 24000 }, { codec: 'mp3', sampleRate: 24000 });
    expect(spoken.done.error).toBeUndefined();
    const decoder = new MPEGDecoder();
    await decoder.ready;
    const d = decoder.decode(spoken.audio);
    expect(d.sampleRate).toBe(24000);
    const expected = asPlayed(float32ToInt16(d.channelData[0].subarray(0, d.samplesDecoded)), 24000);
    decoder.free();
    const played = s.played();
    const firstExpected = expected.findIndex((v) => v !== 0);
    const offset = played.findIndex((v) => v !== 0) - firstExpected;
    expect(offset).toBeGreaterThanOrEqual(0);
    // One piece, decoded at once: played without a gap, sample for sample.
    expect(played.subarray(offset, offset + expected.length)).toEqual(expected);
    expect(played.subarray(offset + expected.length).every((v) => v === 0)).toBe(true);
  }, 90_000);

  it('Speech\'s own run with `output` plays through the device: the page gets the device and the ms heard, the result says what was played', async () => {
    rmSync(s.playedFile, { force: true });
    const chunks: SpeechRunChunk[] = [];
    const ctx = { sessionId: 'speech-out', signal: new AbortController().signal, streamId: 'o', emit: (c: SpeechRunChunk) => chunks.push(c) };
    const fields = SpeechFieldsSchema.parse({ text: TEXT, codec: 'mulaw', sampleRate: 8000, output: { device: null } });
    const result = await s.h.app.handlers.speech.stream(fields, ctx);
    expect(result.played).toMatchObject({ stopped: false, error: null });
    const audio = chunks.flatMap((c) => (c.type === 'audio' ? [c.audio] : []));
    const mulaw = Uint8Array.from(audio.flatMap((a) => [...a]));
    const expected = asPlayed(decodeMulaw(mulaw), 8000);
    expect(nonZero(s.played())).toEqual(nonZero(expected));
    expect(result.played!.ms).toBeCloseTo(expected.length / 2 / 48, 0);
    expect(chunks.find((c) => c.type === 'device')).toEqual({ type: 'device', name: 'default' });
    const played = chunks.flatMap((c) => (c.type === 'played' ? [c.ms] : []));
    expect(played).toEqual([...played].sort((a, b) => a - b));
    expect(played.at(-1)).toBe(result.played!.ms);
  }, 90_000);

  it('Stop on the native device answers the ms that reached it: the file holds exactly that much of the speech and nothing after', async () => {
    rmSync(s.playedFile, { force: true });
    const text = `${TEXT} ${TEXT} ${TEXT}`;
    const spoken = await s.speak('rest', { text, codec: 'pcm', sampleRate: 24000 }, { codec: 'pcm', sampleRate: 24000 }, { stopAfterMs: 300 });
    expect(spoken.done).toMatchObject({ stopped: true });
    const flushed = spoken.events.find((e) => e.type === 'flushed');
    expect(flushed).toMatchObject({ type: 'flushed', playedMs: spoken.stopped!.playedMs });
    const expected = asPlayed(pcm16(spoken.audio), 24000);
    const heard = nonZero(s.played());
    // What played is the speech's head, in order, and nothing of it came after the flush...
    expect(heard.length).toBeGreaterThan(0);
    expect(heard).toEqual(nonZero(expected).subarray(0, heard.length));
    // ...and its length is what Stop answered (rounded to 0.1 ms: 5 frames).
    const frames = Math.round(spoken.stopped!.playedMs * 48);
    const within = (n: number) => nonZero(expected.subarray(0, n * 2)).length;
    expect(heard.length).toBeGreaterThanOrEqual(within(frames - 5));
    expect(heard.length).toBeLessThanOrEqual(within(frames + 5));
  }, 90_000);

  it('Stop flushes at once and answers the ms heard: more than was heard when Stop was pressed, less than the speech', async () => {
    // The paced device plays in real time (the file device would play it all at once).
    const spoken = await s.speak('stream', { text: TEXT, codec: 'pcm', sampleRate: 24000 }, { codec: 'pcm', sampleRate: 24000, backend: 'paced' }, { stopAfterMs: 300 });
    const speechMs = (pcm16(spoken.audio).length / 24000) * 1000;
    expect(speechMs).toBeGreaterThan(1500);
    expect(spoken.stopped!.playedMs).toBeGreaterThanOrEqual(300);
    expect(spoken.stopped!.playedMs).toBeLessThan(speechMs - 500);
    expect(spoken.done).toMatchObject({ stopped: true });
    // The device fell silent after the flush, and nothing more was heard than Stop answered.
    expect(spoken.events.some((e) => e.type === 'silence')).toBe(true);
    const progress = spoken.events.flatMap((e) => (e.type === 'progress' ? [e.playedMs] : []));
    expect(Math.max(...progress)).toBeLessThanOrEqual(Math.ceil(spoken.done.playedMs));
    expect(spoken.done.playedMs).toBeLessThan(speechMs - 500);
  }, 90_000);
});
