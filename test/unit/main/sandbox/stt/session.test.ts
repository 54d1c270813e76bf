/**
 * The streaming session as a state machine (no socket): the event sequence of wire-notes 4.2, in
 * audio time. Audio goes in as 100 ms binary frames, as a paced client sends it.
 */
import alawmulaw from 'alawmulaw';
import { describe, expect, it } from 'vitest';
import { parseStreamParams } from '../../../../../main/sandbox/stt/params';
import { SttSession, type ServerMessage, type SessionStep } from '../../../../../main/sandbox/stt/session';
import { transcribe } from '../../../../../main/sandbox/stt/transcribe';
import { concat, interleave, pcmBytes, silence, speak } from './speech';

type Partial = Extract<ServerMessage, { type: 'transcript.partial' }>;
type Done = Extract<ServerMessage, { type: 'transcript.done' }>;

// eSpeak speaks at 22050 Hz: the sessions are opened with sample_rate=22050.
const first = speak('Hello there, this is the first speaker talking about the weather today.', 'en-us', 25);
const second = speak('And this is another voice, answering the question.', 'en-us+f3', 50);
const rate = first.rate;
const dialogue = concat(first.pcm, silence(1000, rate), second.pcm, silence(700, rate));
const ends = (e: Partial) => Math.round((e.start + e.duration) * 1000);

async function run(query: Record<string, string | string[]>, audio: Uint8Array, frameBytes: number, tail: Array<string | null> = ['{"type":"audio.done"}']) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries({ sample_rate: String(rate), ...query })) for (const one of [v].flat()) params.append(k, one);
  const session = await SttSession.create(parseStreamParams(params));
  const steps: SessionStep[] = [session.start()];
  for (let at = 0; at < audio.length; at += frameBytes) steps.push(session.audio(audio.subarray(at, at + frameBytes)));
  for (const msg of tail) if (msg !== null) steps.push(session.message(msg));
  const messages = steps.flatMap((s) => s.messages);
  return { messages, partials: messages.filter((m): m is Partial => m.type === 'transcript.partial'), closes: steps.filter((s) => s.close).map((s) => s.close), session };
}

const pcm100ms = (rate * 2) / 10;

describe('SttSession', () => {
  it('sends transcript.created first, finals that cover the words, then transcript.done with the exact duration and closes', async () => {
    const { messages, partials, closes } = await run({}, pcmBytes(dialogue), pcm100ms);
    expect(messages[0]).toEqual({ type: 'transcript.created' });
    const done = messages.at(-1) as Done;
    expect(done.type).toBe('transcript.done');
    expect(done.duration).toBe(Math.round((dialogue.length / rate) * 100) / 100);
    expect(messages.filter((m) => m.type === 'transcript.done')).toHaveLength(1);
    expect(closes).toEqual([{ code: 1000, reason: 'transcript done' }]);
    // No interim results unless asked; the finals and the done remainder are the whole transcript,
    // the same words the REST answer gives for the same audio.
    expect(partials.every((p) => p.is_final)).toBe(true);
    const streamed = [...partials.flatMap((p) => p.words), ...done.words];
    const rest = await transcribe([dialogue], rate, { language: null, diarize: false, multichannel: false, style: { fillerWords: false, keyterms: [], itn: false } });
    expect(streamed).toEqual(rest.words);
    // Windows follow one another without gaps.
    partials.forEach((p, i) => expect(p.start).toBe(i === 0 ? 0 : Math.round(ends(partials[i - 1])) / 1000));
    expect(partials.every((p) => !('channel_index' in p) && !('end_of_turn_confidence' in p))).toBe(true);
  });

  it('sends interim results about every 500 ms of audio, only when asked, growing until the final', async () => {
    const { partials } = await run({ interim_results: 'true', endpointing: '400' }, pcmBytes(dialogue), pcm100ms);
    const interims = partials.filter((p) => !p.is_final);
    expect(interims.length).toBeGreaterThan(6);
    // Between two results of the same window, 500 ms of audio (to the 10 ms frame).
    for (let i = 1; i < partials.length; i++) {
      if (partials[i].is_final || partials[i - 1].is_final) continue;
      expect(ends(partials[i]) - ends(partials[i - 1])).toBe(500);
    }
    // An interim's whole words are the start of the final that closes its window.
    for (const interim of interims) {
      const final = partials.find((p) => p.is_final && p.start === interim.start)!;
      const whole = interim.words.filter((w) => final.words.some((f) => f.start === w.start && f.text === w.text));
      expect(whole.length).toBeGreaterThanOrEqual(interim.words.length - 1);
    }
  });

  it('ends an utterance with speech_final after endpointing ms of silence', async () => {
    for (const endpointing of [300, 800]) {
      const { partials } = await run({ endpointing: String(endpointing) }, pcmBytes(dialogue), pcm100ms);
      const finals = partials.filter((p) => p.speech_final);
      expect(finals.length).toBeGreaterThan(0);
      for (const f of finals) {
        const lastWord = f.words.at(-1)!;
        const silenceMs = ends(f) - Math.round(lastWord.end * 1000);
        expect(silenceMs).toBeGreaterThanOrEqual(endpointing);
        expect(silenceMs).toBeLessThanOrEqual(endpointing + 60);
      }
    }
    // The 1 s pause between the speakers ends an utterance at 800 ms, not at 1500 ms.
    const short = await run({ endpointing: '800' }, pcmBytes(dialogue), pcm100ms);
    const long = await run({ endpointing: '1500' }, pcmBytes(dialogue), pcm100ms);
    expect(short.partials.filter((p) => p.speech_final).length).toBeGreaterThan(long.partials.filter((p) => p.speech_final).length);
  });

  it('says who speaks with diarize: speaker on the words and on each result', async () => {
    const { partials, messages } = await run({ diarize: 'true', interim_results: 'true' }, pcmBytes(dialogue), pcm100ms);
    const firstEnd = first.pcm.length / rate;
    for (const p of partials) {
      expect(typeof p.speaker).toBe('number');
      if (p.words.length > 0) expect(p.speaker).toBe(p.words.at(-1)!.speaker);
    }
    const words = [...partials.filter((p) => p.is_final).flatMap((p) => p.words), ...(messages.at(-1) as Done).words];
    expect(new Set(words.filter((w) => w.end <= firstEnd + 0.05).map((w) => w.speaker))).toEqual(new Set([0]));
    expect(new Set(words.filter((w) => w.start >= firstEnd + 0.9).map((w) => w.speaker))).toEqual(new Set([1]));
    const plain = await run({}, pcmBytes(dialogue), pcm100ms);
    expect(plain.partials.every((p) => !('speaker' in p) && p.words.every((w) => !('speaker' in w)))).toBe(true);
  });

  it('gates on vad_threshold: 0 lets silence through as speech, 1 needs every frame of the last 50 ms voiced', async () => {
    const words = async (threshold: string) => {
      const r = await run({ vad_threshold: threshold }, pcmBytes(dialogue), pcm100ms);
      return [...r.partials.flatMap((p) => p.words), ...(r.messages.at(-1) as Done).words];
    };
    const gap = [first.pcm.length / rate + 0.1, first.pcm.length / rate + 0.9];
    const inGap = (ws: Array<{ start: number; end: number }>) => ws.filter((w) => w.end > gap[0] && w.start < gap[1]).length;
    const open = await words('0');
    const normal = await words('0.08');
    const strict = await words('1');
    expect(inGap(normal)).toBe(0);
    expect(inGap(open)).toBeGreaterThan(0);
    const spoken = (ws: Array<{ start: number; end: number }>) => ws.reduce((t, w) => t + w.end - w.start, 0);
    expect(spoken(strict)).toBeLessThan(spoken(normal));
  });

  it('cuts long speech into is_final chunks of about 3 s', async () => {
    const long = speak('This is a long stretch of speech without any pause at all that goes on and on and on for quite a while longer than three seconds', 'en-us', 40);
    const { partials } = await run({ endpointing: '5000' }, pcmBytes(long.pcm), pcm100ms);
    const chunks = partials.filter((p) => p.is_final && !p.speech_final);
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    for (const c of chunks) expect(c.duration).toBe(3);
  });

  it('demotes a speech_final below the Smart Turn threshold, and closes the turn after smart_turn_timeout', async () => {
    const sure = await run({ smart_turn: '0', endpointing: '300' }, pcmBytes(dialogue), pcm100ms);
    const sureFinals = sure.partials.filter((p) => p.is_final);
    expect(sure.partials.every((p) => typeof p.end_of_turn_confidence === "number")).toBe(true);
    expect(sureFinals.length).toBeGreaterThan(0);
    expect(sureFinals.every((p) => typeof p.end_of_turn_confidence === 'number' && p.end_of_turn_confidence >= 0 && p.end_of_turn_confidence <= 1)).toBe(true);
    expect(sureFinals.filter((p) => p.speech_final).length).toBeGreaterThan(0);

    const never = await run({ smart_turn: '1', endpointing: '300' }, pcmBytes(dialogue), pcm100ms);
    const demoted = never.partials.filter((p) => p.is_final);
    expect(demoted.length).toBe(sureFinals.length);
    expect(demoted.every((p) => !p.speech_final && p.end_of_turn_confidence! < 1)).toBe(true);

    const timed = await run({ smart_turn: '1', smart_turn_timeout: '200', endpointing: '300' }, pcmBytes(dialogue), pcm100ms);
    const closers = timed.partials.filter((p) => p.speech_final);
    expect(closers.length).toBeGreaterThan(0);
    expect(closers.every((p) => p.text === '' && p.words.length === 0)).toBe(true);
  });

  it('finalize forces a speech_final at once and the session goes on', async () => {
    const params = parseStreamParams(new URLSearchParams({ sample_rate: String(rate), endpointing: '5000' }));
    const session = await SttSession.create(params);
    session.start();
    const bytes = pcmBytes(first.pcm);
    const half = Math.floor(bytes.length / 2 / pcm100ms) * pcm100ms;
    for (let at = 0; at < half; at += pcm100ms) session.audio(bytes.subarray(at, at + pcm100ms));
    for (const type of ['finalize', 'Finalize']) {
      const step = session.message(JSON.stringify({ type }));
      expect(step.close).toBeUndefined();
      expect(step.messages).toHaveLength(1);
      expect(step.messages[0]).toMatchObject({ type: 'transcript.partial', is_final: true, speech_final: true });
    }
    const done = session.message('{"type":"audio.done"}');
    expect(done.messages.map((m) => m.type)).toEqual(['transcript.done']);
    // finalize takes a channel only when multichannel.
    const mono = await SttSession.create(params);
    expect(mono.message('{"type":"finalize","channel":0}').messages[0]).toEqual({ type: 'error', message: 'finalize takes a channel only on a multichannel session; leave it out.' });
  });

  it('transcribes interleaved channels apart: channel_index on every result, one transcript.done each, finalize per channel', async () => {
    const left = concat(first.pcm, silence(2500, rate));
    const right = concat(silence(1500, rate), second.pcm);
    const stereo = interleave(left, right);
    const session = await SttSession.create(parseStreamParams(new URLSearchParams({ sample_rate: String(rate), multichannel: 'true', channels: '2', endpointing: '5000' })));
    const messages: ServerMessage[] = [...session.start().messages];
    const bytes = pcmBytes(stereo);
    // Odd frame sizes: samples split across frames are carried over.
    for (let at = 0; at < bytes.length; at += 4001) messages.push(...session.audio(bytes.subarray(at, at + 4001)).messages);
    const one = session.message('{"type":"finalize","channel":1}');
    expect(one.messages.map((m) => ('channel_index' in m ? m.channel_index : null))).toEqual([1]);
    expect(session.message('{"type":"finalize","channel":2}').messages[0]).toEqual({ type: 'error', message: 'finalize channel must be an integer from 0 to 1 (0-based), not 2.' });
    messages.push(...one.messages, ...session.message('{"type":"audio.done"}').messages);
    const dones = messages.filter((m): m is Done & { channel_index: number } => m.type === 'transcript.done');
    expect(dones.map((d) => d.channel_index)).toEqual([0, 1]);
    const seconds = Math.round(((stereo.length / 2) / rate) * 100) / 100;
    expect(dones.map((d) => d.duration)).toEqual([seconds, seconds]);
    const words = (ch: number) => messages.filter((m) => 'channel_index' in m && m.channel_index === ch).flatMap((m) => ('words' in m ? m.words : []));
    const firstEnd = first.pcm.length / rate;
    expect(words(0).length).toBeGreaterThan(3);
    expect(words(1).length).toBeGreaterThan(3);
    expect(words(0).every((w) => w.end <= firstEnd + 0.05)).toBe(true);
    expect(words(1).every((w) => w.start >= 1.5)).toBe(true);
  });

  it('decodes mulaw and alaw frames to the same kind of transcript as pcm', async () => {
    const pcm = await run({}, pcmBytes(dialogue), pcm100ms);
    for (const encoding of ['mulaw', 'alaw'] as const) {
      const bytes = encoding === 'mulaw' ? alawmulaw.mulaw.encode(dialogue) : alawmulaw.alaw.encode(dialogue);
      const r = await run({ encoding }, bytes, rate / 10);
      const done = r.messages.at(-1) as Done;
      expect(done.duration).toBe((pcm.messages.at(-1) as Done).duration);
      const words = [...r.partials.flatMap((p) => p.words), ...done.words];
      expect(words.length).toBeGreaterThan(10);
    }
  });

  it('answers a bad client message with an error and stays open; an undecodable Opus frame is an error and a close', async () => {
    const r = await run({}, new Uint8Array(0), 1, ['not json', '{"type":"speak"}', '{"type":"audio.done"}']);
    expect(r.messages.slice(1, 3)).toEqual([
      { type: 'error', message: 'Could not parse the message as JSON: "not json". Send {"type":"finalize"} or {"type":"audio.done"}; audio goes in binary frames.' },
      { type: 'error', message: 'Unknown message type "speak"; the client messages are finalize (or Finalize) and audio.done, and audio goes in binary frames.' },
    ]);
    expect(r.messages.at(-1)).toMatchObject({ type: 'transcript.done', text: '', words: [], duration: 0 });

    const session = await SttSession.create(parseStreamParams(new URLSearchParams({ encoding: 'opus' })));
    const step = session.audio(new Uint8Array([0xff, 0xff, 0xff]));
    expect(step.close).toEqual({ code: 1007, reason: 'invalid audio frame' });
    expect(step.messages).toHaveLength(1);
    expect(step.messages[0]).toMatchObject({ type: 'error' });
    expect((step.messages[0] as { message: string }).message).toMatch(/^Audio frame 1 is not an Opus packet libopus can decode .*one raw Opus packet per binary frame\.$/);
    expect(session.isEnded).toBe(true);
    expect(session.audio(new Uint8Array(10)).messages).toEqual([]);
  });
});
