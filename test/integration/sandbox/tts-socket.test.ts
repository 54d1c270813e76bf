/**
 * The WebSocket /v1/tts checked raw (ws, no SDK): refusals before the upgrade, the message
 * sequence and its fields, several utterances on one connection, per-chunk timestamps, a smaller
 * first chunk with optimize_streaming_latency=1, and `error` on a bad message.
 */
import { MPEGDecoder } from 'mpg123-decoder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startSandbox, type SandboxServer } from '../../../main/sandbox/index';

const KEY = 'sk-tts-socket-1';
let sb: SandboxServer;

beforeAll(async () => {
  sb = await startSandbox({ keys: [KEY] });
});
afterAll(() => sb.close());

type Message = Record<string, any>;

/** A connection that records every message; `until(type, n)` waits for the n-th message of a type. */
async function open(query: string): Promise<{ ws: WebSocket; messages: Message[]; until(type: string, n?: number): Promise<void> }> {
  const ws = new WebSocket(`${sb.url.replace('http', 'ws')}/v1/tts?${query}`, { headers: { authorization: `Bearer ${KEY}` } });
  const messages: Message[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (data) => {
    messages.push(JSON.parse(String(data)));
    for (const w of waiters.splice(0)) w();
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const until = (type: string, n = 1) =>
    new Promise<void>((resolve) => {
      const check = () => (messages.filter((m) => m.type === type).length >= n ? resolve() : waiters.push(check));
      check();
    });
  return { ws, messages, until };
}

/** The HTTP refusal of an upgrade: status and the JSON error body. */
function refusal(query: string, headers: Record<string, string> = { authorization: `Bearer ${KEY}` }): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${sb.url.replace('http', 'ws')}/v1/tts?${query}`, { headers });
    ws.once('open', () => reject(new Error(`upgraded: ${query}`)));
    ws.once('error', () => undefined);
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
  });
}

const send = (ws: WebSocket, m: Message) => ws.send(JSON.stringify(m));

describe('WebSocket /v1/tts', () => {
  it('refuses a bad query before the upgrade, each rule with its message', async () => {
    const cases: Array<[string, number, string]> = [
      ['voice=eve', 400, 'language is required'],
      ['language=en&codec=flac', 422, 'codec must be one of mp3, wav, pcm, mulaw, ulaw, alaw; got "flac"'],
      ['language=en&sample_rate=12000', 400, 'sample_rate must be one of 8000, 16000, 22050, 24000, 44100, 48000; got 12000'],
      ['language=en&sample_rate=abc', 422, 'sample_rate must be an integer; got "abc"'],
      ['language=en&bit_rate=1000', 400, 'bit_rate must be one of 32000, 64000, 96000, 128000, 192000; got 1000'],
      ['language=en&speed=0.5', 400, 'speed must be between 0.7 and 1.5; got 0.5'],
      ['language=en&speed=', 422, 'speed must be a number'],
      ['language=en&optimize_streaming_latency=5', 400, 'optimize_streaming_latency must be 0 (best quality) or 1 (smaller first chunk); got 5'],
      ['language=en&with_timestamps=maybe', 422, 'with_timestamps must be true or false; got "maybe"'],
      ['language=en&text_normalization=2', 422, 'text_normalization must be true or false; got "2"'],
      ['language=en&voice=nobody1', 404, 'Voice nobody1 does not exist'],
      ['language=en&language=fr', 400, 'language is given 2 times'],
      ['language=zz-qq', 400, 'language "zz-qq" is not supported'],
    ];
    for (const [query, status, message] of cases) {
      const r = await refusal(query);
      expect({ query, status: r.status }).toEqual({ query, status });
      expect(r.body.error, query).toContain(message);
    }
    expect((await refusal('language=en', {})).status).toBe(401);
  });

  it('answers text.delta x2, text.done with audio.delta chunks then audio.done, twice on one connection', async () => {
    const c = await open('language=en&voice=Rex');
    send(c.ws, { type: 'text.delta', delta: 'Hello there. ' });
    send(c.ws, { type: 'text.delta', delta: 'This is the first utterance.' });
    send(c.ws, { type: 'text.done' });
    await c.until('audio.done');
    // The next utterance on the same connection.
    send(c.ws, { type: 'text.delta', delta: 'And a second one.' });
    send(c.ws, { type: 'text.done' });
    await c.until('audio.done', 2);
    const types = c.messages.map((m) => m.type);
    const firstDone = types.indexOf('audio.done');
    expect(types.slice(0, firstDone).every((t) => t === 'audio.delta')).toBe(true);
    expect(firstDone).toBeGreaterThanOrEqual(2);
    expect(types.slice(firstDone + 1, -1).every((t) => t === 'audio.delta')).toBe(true);
    expect(types.at(-1)).toBe('audio.done');
    for (const m of c.messages.filter((x) => x.type === 'audio.delta')) {
      expect(Object.keys(m).sort()).toEqual(['delta', 'type']);
      expect(m.delta).toMatch(/^[A-Za-z0-9+/]+=*$/);
    }
    expect(c.messages[firstDone].trace_id).toMatch(/^[0-9a-f-]{36}$/);
    // The first utterance's chunks joined are one MP3 stream (mp3 is the default codec) of speech.
    const mp3 = Buffer.concat(c.messages.slice(0, firstDone).map((m) => Buffer.from(m.delta, 'base64')));
    const decoder = new MPEGDecoder();
    await decoder.ready;
    const decoded = decoder.decode(mp3);
    decoder.free();
    expect(decoded.sampleRate).toBe(24000);
    expect(decoded.errors).toEqual([]);
    expect(decoded.samplesDecoded / 24000).toBeGreaterThan(1.5);
    c.ws.close();
  });

  it('carries per-chunk audio_timestamps and audio_duration with timestamps on', async () => {
    const c = await open('language=en&codec=pcm&sample_rate=16000&with_timestamps=true');
    const text = 'First sentence here. [pause] Second sentence there.';
    send(c.ws, { type: 'text.delta', delta: text });
    send(c.ws, { type: 'text.done' });
    await c.until('audio.done');
    const deltas = c.messages.filter((m) => m.type === 'audio.delta');
    expect(deltas.length).toBeGreaterThanOrEqual(3);
    let chars = '';
    let last = 0;
    let total = 0;
    for (const m of deltas) {
      const bytes = Buffer.from(m.delta, 'base64');
      // audio_duration is this chunk's audio: 16-bit samples at 16 kHz.
      expect(m.audio_duration).toBeCloseTo(bytes.length / 2 / 16000, 2);
      expect(m.audio_timestamps.graph_times).toHaveLength(m.audio_timestamps.graph_chars.length);
      for (const [s, e] of m.audio_timestamps.graph_times) {
        expect(s).toBeGreaterThanOrEqual(last);
        expect(e).toBeGreaterThanOrEqual(s);
        // Seconds from the utterance's start, so within the audio sent so far.
        expect(e).toBeLessThanOrEqual(total + m.audio_duration + 1e-3);
        last = e;
      }
      total += m.audio_duration;
      chars += m.audio_timestamps.graph_chars.join('');
    }
    expect(chars).toBe('First sentence here.  Second sentence there.');
    c.ws.close();
  });

  it('sends a smaller first chunk with optimize_streaming_latency=1', async () => {
    const text = 'Streaming speech starts sooner when the first chunk of an utterance is kept short, and the rest follows in sentences.';
    const firstChunk = async (osl: number) => {
      const c = await open(`language=en&codec=pcm&sample_rate=8000&optimize_streaming_latency=${osl}`);
      send(c.ws, { type: 'text.delta', delta: text });
      send(c.ws, { type: 'text.done' });
      await c.until('audio.done');
      c.ws.close();
      const deltas = c.messages.filter((m) => m.type === 'audio.delta').map((m) => Buffer.from(m.delta, 'base64').length);
      return { first: deltas[0], total: deltas.reduce((a, b) => a + b, 0) };
    };
    const quality = await firstChunk(0);
    const fast = await firstChunk(1);
    expect(fast.first).toBeLessThan(quality.first / 2);
    // The same speech overall (within 25%: the cut changes eSpeak's phrasing slightly).
    expect(Math.abs(fast.total - quality.total) / quality.total).toBeLessThan(0.25);
  });

  it('starts speaking a whole sentence before text.done, and finishes the utterance after it', async () => {
    const c = await open('language=en&codec=pcm&sample_rate=8000&with_timestamps=true');
    send(c.ws, { type: 'text.delta', delta: 'The first sentence is ready. The second one is still being' });
    // Audio for the first sentence arrives with no text.done sent.
    await c.until('audio.delta');
    expect(c.messages.filter((m) => m.type === 'audio.done')).toHaveLength(0);
    expect(c.messages[0].audio_timestamps.graph_chars.join('')).toBe('The first sentence is ready. ');
    send(c.ws, { type: 'text.delta', delta: ' <slow>written. And</slow> done.' });
    send(c.ws, { type: 'text.done' });
    await c.until('audio.done');
    const chars = c.messages.filter((m) => m.type === 'audio.delta').map((m) => m.audio_timestamps.graph_chars.join('')).join('');
    expect(chars).toBe('The first sentence is ready. The second one is still being written. And done.');
    const times = c.messages.filter((m) => m.type === 'audio.delta').flatMap((m) => m.audio_timestamps.graph_times as Array<[number, number]>);
    for (let i = 1; i < times.length; i++) expect(times[i][0]).toBeGreaterThanOrEqual(times[i - 1][1]);
    c.ws.close();
  });

  it('speaks the first clause alone: a comma, semicolon, colon or spaced dash is enough, before text.done', async () => {
    const c = await open('language=en&codec=pcm&sample_rate=8000&with_timestamps=true');
    // The whole text at once (as the app sends it): the first audio is its first clause only.
    send(c.ws, { type: 'text.delta', delta: 'When the text arrives whole, the first clause is spoken alone; the rest follows: in sentences. Then' });
    await c.until('audio.delta');
    expect(c.messages[0].audio_timestamps.graph_chars.join('')).toBe('When the text arrives whole, ');
    // Text arriving a clause at a time is spoken a clause at a time (a dash ends one too).
    send(c.ws, { type: 'text.delta', delta: ' it goes on - ' });
    const spoken = () => c.messages.filter((m) => m.type === 'audio.delta').map((m) => m.audio_timestamps.graph_chars.join('')).join('');
    await new Promise<void>((resolve) => {
      const check = () => (spoken().endsWith('it goes on - ') ? resolve() : setTimeout(check, 20));
      check();
    });
    expect(c.messages.filter((m) => m.type === 'audio.done')).toHaveLength(0);
    send(c.ws, { type: 'text.delta', delta: 'and ends' });
    send(c.ws, { type: 'text.done' });
    await c.until('audio.done');
    expect(spoken()).toBe('When the text arrives whole, the first clause is spoken alone; the rest follows: in sentences. Then it goes on - and ends');
    c.ws.close();
  });

  it('answers a bad message with error and stays open', async () => {
    const c = await open('language=en&codec=mulaw&sample_rate=8000');
    c.ws.send('not json');
    send(c.ws, { type: 'speak.now' });
    send(c.ws, { type: 'text.done' });
    send(c.ws, { type: 'text.delta', delta: 42 });
    send(c.ws, { type: 'text.delta', delta: 'x'.repeat(60_001) });
    c.ws.send(Buffer.from([1, 2, 3]));
    await c.until('error', 6);
    expect(c.messages.map((m) => m.message)).toEqual([
      'The message is not JSON: send {"type":"text.delta","delta":"…"} or {"type":"text.done"}.',
      'Unknown message type "speak.now": send "text.delta" or "text.done".',
      'text.done with no text: send text.delta messages first.',
      'text.delta delta must be a string',
      'text.delta delta is 60,001 characters; the limit is 60,000',
      'Binary frames are not accepted on /v1/tts: send JSON text messages ({"type":"text.delta","delta":"…"}, {"type":"text.done"}).',
    ]);
    expect(c.messages.every((m) => m.type === 'error')).toBe(true);
    send(c.ws, { type: 'text.delta', delta: 'Still here.' });
    send(c.ws, { type: 'text.done' });
    await c.until('audio.done');
    c.ws.close();
  });
});
