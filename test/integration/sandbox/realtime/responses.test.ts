/**
 * Responses on /v1/realtime, checked raw: the spec's event order with real synthesised speech
 * (what POST /v1/tts makes for the same words, voice and format: same length, the same signal up to eSpeak's own noise) in PCM 24 kHz and
 * G.711 8 kHz, transcript deltas matching each part's audio, text modality with both delta names,
 * usage in response.done, a function call with argument deltas then a spoken answer using its
 * output, response.cancel stopping the audio, conversation.item.truncate cutting the transcript
 * to what was heard, and ping keep-alives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeMulaw, pcm16ToBytes } from '../../../../shared/audio';
import { startSandbox, type SandboxServer } from '../../../../main/sandbox/index';
import { connect, type Event, type RtClient } from './client';

const KEY = 'sk-rt-resp-1';
let sb: SandboxServer;
/** Real-time paced (no lead), for cancels. */
let paced: SandboxServer;

beforeAll(async () => {
  sb = await startSandbox({ keys: [KEY], tokenDelayMs: 0, realtime: { audioLeadMs: Infinity, pingIntervalMs: 100 } });
  paced = await startSandbox({ keys: [KEY], tokenDelayMs: 0, realtime: { audioLeadMs: 0 } });
});
afterAll(async () => {
  await sb.close();
  await paced.close();
});

const auth = { authorization: `Bearer ${KEY}` };

async function session(server: SandboxServer, update: Record<string, unknown> = {}): Promise<RtClient> {
  const c = await connect(server, { headers: auth });
  c.send({ type: 'session.update', session: { turn_detection: null, ...update } });
  await c.until('session.updated');
  return c;
}

function say(c: RtClient, text: string): void {
  c.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } });
}

/** The events of one response (from response.created to response.done), pings left out. */
function responseEvents(c: RtClient, n = 1): Event[] {
  const start = c.events.filter((e) => e.type === 'response.created')[n - 1];
  const from = c.events.indexOf(start);
  const end = c.events.findIndex((e, i) => i > from && e.type === 'response.done');
  return c.events.slice(from, end + 1).filter((e) => e.type !== 'ping');
}

/** Runs of the same type collapsed: [a, a, b] -> [a, b]. */
function collapsed(types: string[]): string[] {
  return types.filter((t, i) => t !== types[i - 1]);
}

/** Pearson correlation of two PCM16 clips (eSpeak adds a little noise of its own: not byte-identical run to run). */
function correlation(a: Buffer, b: Buffer): number {
  const n = Math.min(a.length, b.length) / 2;
  let sa = 0, sb2 = 0, sab = 0, ma = 0, mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a.readInt16LE(i * 2);
    mb += b.readInt16LE(i * 2);
  }
  ma /= n;
  mb /= n;
  for (let i = 0; i < n; i++) {
    const x = a.readInt16LE(i * 2) - ma;
    const y = b.readInt16LE(i * 2) - mb;
    sa += x * x;
    sb2 += y * y;
    sab += x * y;
  }
  return sab / Math.sqrt(sa * sb2);
}

function rms(a: Buffer): number {
  let s = 0;
  for (let i = 0; i < a.length / 2; i++) s += a.readInt16LE(i * 2) ** 2;
  return Math.sqrt(s / (a.length / 2));
}

async function tts(text: string, codec: string, rate: number, voice = 'eve'): Promise<Buffer> {
  const res = await fetch(`${sb.url}/v1/tts`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ text, language: 'en', voice_id: voice, optimize_streaming_latency: 1, output_format: { codec, sample_rate: rate } }) });
  expect(res.status).toBe(200);
  return Buffer.from(((await res.json()) as { audio: string }).audio, 'base64');
}

describe('response.create', () => {
  it('speaks: the spec\'s event order, real speech in PCM 24 kHz, transcript deltas after their audio, usage', async () => {
    const c = await session(sb);
    say(c, 'Say Hello there, this is the sandbox speaking.');
    await c.until('conversation.item.added');
    c.send({ type: 'response.create' });
    const done = await c.until('response.done');
    const events = responseEvents(c);
    const types = events.map((e) => e.type);
    expect(collapsed(types.map((t) => (t === 'response.output_audio_transcript.delta' || t === 'response.output_audio.delta' ? 'delta' : t)))).toEqual([
      'response.created',
      'response.output_item.added',
      'response.content_part.added',
      'delta',
      'response.output_audio.done',
      'response.output_audio_transcript.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.done',
    ]);
    // Each part's audio comes first, then its words; the last delta is a transcript (or the resampler's tail).
    expect(types.indexOf('response.output_audio.delta')).toBeLessThan(types.indexOf('response.output_audio_transcript.delta'));
    const responseId = events[0].response.id;
    expect(events[0].response).toMatchObject({ object: 'realtime.response', status: 'in_progress', output: [], usage: null });
    const item = events[1].item;
    expect(item).toMatchObject({ type: 'message', role: 'assistant', status: 'in_progress', content: [] });
    expect(events[2]).toMatchObject({ response_id: responseId, item_id: item.id, output_index: 0, content_index: 0, part: { type: 'audio', transcript: '' } });
    const audioDeltas = events.filter((e) => e.type === 'response.output_audio.delta');
    for (const d of audioDeltas) expect(d).toMatchObject({ response_id: responseId, item_id: item.id, output_index: 0, content_index: 0 });
    const audio = Buffer.concat(audioDeltas.map((d) => Buffer.from(d.delta, 'base64')));
    // ≤ 100 ms per delta; the whole is exactly what the synthesiser makes for these words.
    for (const d of audioDeltas) expect(Buffer.from(d.delta, 'base64').length).toBeLessThanOrEqual(4800);
    const rest = await tts('Hello there, this is the sandbox speaking.', 'pcm', 24000);
    expect(audio.length).toBe(rest.length);
    expect(correlation(audio, rest)).toBeGreaterThan(0.99);
    expect(rms(audio)).toBeGreaterThan(1000);
    const transcript = events.filter((e) => e.type === 'response.output_audio_transcript.delta').map((e) => e.delta).join('');
    expect(transcript).toBe('Hello there, this is the sandbox speaking.');
    expect(events.find((e) => e.type === 'response.output_audio_transcript.done')?.transcript).toBe(transcript);
    expect(events.find((e) => e.type === 'response.content_part.done')?.part).toEqual({ type: 'audio', transcript });
    expect(done.response).toMatchObject({ id: responseId, status: 'completed', status_details: null, output: [{ id: item.id, type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'audio', transcript }] }] });
    const ms = (audio.length / 2 / 24000) * 1000;
    const usage = done.response.usage;
    expect(usage.output_token_details.audio_tokens).toBe(Math.ceil(Math.round(ms) / 50));
    expect(usage.output_token_details.text_tokens).toBeGreaterThan(5);
    expect(usage.input_tokens).toBe(usage.input_token_details.text_tokens + usage.input_token_details.audio_tokens);
    expect(usage.total_tokens).toBe(usage.input_tokens + usage.output_tokens);
    // The second response reads the first as a cached prefix.
    c.send({ type: 'response.create' });
    const second = await c.until('response.done', 2);
    expect(second.response.usage.input_token_details.cached_tokens).toBe(usage.input_tokens);
    c.close();
  });

  it('speaks G.711 µ-law at 8 kHz when the output format is audio/pcmu, in the voice response.create asks for', async () => {
    const c = await session(sb, { audio: { output: { format: { type: 'audio/pcmu' } } } });
    say(c, 'Say Good morning.');
    c.send({ type: 'response.create', response: { voice: 'rex' } });
    await c.until('response.done');
    const events = responseEvents(c);
    const audio = Buffer.concat(events.filter((e) => e.type === 'response.output_audio.delta').map((d) => Buffer.from(d.delta, 'base64')));
    for (const d of events.filter((e) => e.type === 'response.output_audio.delta')) expect(Buffer.from(d.delta, 'base64').length).toBeLessThanOrEqual(800);
    const rest = await tts('Good morning.', 'mulaw', 8000, 'rex');
    expect(audio.length).toBe(rest.length);
    const pcm = (b: Buffer) => Buffer.from(pcm16ToBytes(decodeMulaw(b)));
    expect(correlation(pcm(audio), pcm(rest))).toBeGreaterThan(0.99);
    expect(events.at(-1)?.response.audio.output).toEqual({ format: { type: 'audio/pcmu', rate: 8000 }, voice: 'rex' });
    c.close();
  });

  it('writes text with response.output_text.delta and response.text.delta both, for the text modality', async () => {
    const c = await session(sb, { output_modalities: ['text'] });
    say(c, 'Tell me about tide pools and crabs');
    c.send({ type: 'response.create' });
    const done = await c.until('response.done');
    const events = responseEvents(c);
    const types = events.map((e) => e.type);
    expect(collapsed(types.filter((t) => !t.endsWith('.delta')))).toEqual([
      'response.created',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.done',
      'response.text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.done',
    ]);
    expect(types).not.toContain('response.output_audio.delta');
    const a = events.filter((e) => e.type === 'response.output_text.delta');
    const b = events.filter((e) => e.type === 'response.text.delta');
    expect(a.length).toBeGreaterThan(5);
    expect(b.map((e) => e.delta)).toEqual(a.map((e) => e.delta));
    // Pairs: each output_text.delta is followed by its text.delta.
    expect(types.slice(3, 3 + 2 * a.length)).toEqual(a.flatMap(() => ['response.output_text.delta', 'response.text.delta']));
    const text = a.map((e) => e.delta).join('');
    expect(text).toContain('synthetic');
    expect(text).toContain('tide pools');
    expect(events.find((e) => e.type === 'response.text.done')?.text).toBe(text);
    expect(done.response.output[0].content).toEqual([{ type: 'text', text }]);
    expect(done.response.usage.output_token_details.audio_tokens).toBe(0);
    // The same conversation says the same thing (deterministic): a fresh session, same input.
    const d = await session(sb, { output_modalities: ['text'] });
    say(d, 'Tell me about tide pools and crabs');
    d.send({ type: 'response.create' });
    expect((await d.until('response.done')).response.output[0].content[0].text).toBe(text);
    c.close();
    d.close();
  });

  it('calls a defined tool with argument deltas, then answers aloud with its output', async () => {
    const tools = [{ type: 'function', name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }];
    const c = await session(sb, { tools });
    say(c, 'Please use get_weather for the weather in Lisbon');
    c.send({ type: 'response.create' });
    const done = await c.until('response.done');
    const events = responseEvents(c);
    expect(collapsed(events.map((e) => e.type))).toEqual([
      'response.created',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.done',
    ]);
    const call = events[1].item;
    expect(call).toMatchObject({ type: 'function_call', name: 'get_weather', status: 'in_progress', arguments: '' });
    const deltas = events.filter((e) => e.type === 'response.function_call_arguments.delta');
    expect(deltas.length).toBeGreaterThan(1);
    const args = deltas.map((e) => e.delta).join('');
    const finished = events.find((e) => e.type === 'response.function_call_arguments.done');
    expect(finished).toMatchObject({ call_id: call.call_id, name: 'get_weather', arguments: args, item_id: call.id });
    expect(JSON.parse(args)).toEqual({ city: 'Lisbon' });
    expect(done.response.output).toEqual([{ ...call, status: 'completed', arguments: args }]);

    c.send({ type: 'conversation.item.create', item: { type: 'function_call_output', call_id: call.call_id, output: JSON.stringify({ temperature_c: 21, sky: 'clear' }) } });
    c.send({ type: 'response.create' });
    const answer = await c.until('response.done', 2);
    const transcript = answer.response.output[0].content[0].transcript as string;
    expect(transcript).toContain('get weather tool says: temperature c 21, sky clear.');
    expect(responseEvents(c, 2).some((e) => e.type === 'response.output_audio.delta')).toBe(true);
    c.close();
  });

  it('refuses a second response while one runs, a cancel with none, and a bad body', async () => {
    const c = await session(paced);
    say(c, 'Tell me a long story about lighthouses and the sea and ships');
    c.send({ type: 'response.create' });
    c.send({ type: 'response.create', event_id: 'evt_twice' });
    expect((await c.until('error')).error).toMatchObject({ code: 'conversation_already_has_active_response', event_id: 'evt_twice' });
    c.send({ type: 'response.cancel' });
    await c.until('response.done');
    c.send({ type: 'response.cancel', event_id: 'evt_none' });
    expect((await c.until('error', 2)).error).toMatchObject({ code: 'response_cancel_not_active', event_id: 'evt_none' });
    c.send({ type: 'response.create', response: { modalities: ['smell'], voice: 'bob', colour: 1 } });
    const bad = (await c.until('error', 3)).error;
    expect(bad.code).toBe('unknown_parameter');
    expect(bad.message).toContain("Unknown voice 'bob'");
    expect(bad.message).toContain('must be ["audio"] or ["text"]');
    c.close();
  });

  it('cancels: the audio stops at once and the response ends cancelled, keeping what was sent', async () => {
    const c = await session(paced);
    say(c, 'Tell me a long story about lighthouses and the sea and ships');
    c.send({ type: 'response.create' });
    await c.until('response.output_audio.delta', 2);
    c.send({ type: 'response.cancel' });
    const done = await c.until('response.done');
    await new Promise((r) => setTimeout(r, 300));
    const events = responseEvents(c);
    expect(done.response.status).toBe('cancelled');
    expect(done.response.status_details).toEqual({ type: 'cancelled', reason: 'client_cancelled' });
    expect(done.response.output[0].status).toBe('incomplete');
    // Nothing after response.done, and the closing events of an interrupted answer are all there.
    expect(c.events.at(-1)?.type === 'response.done' || c.events.slice(c.events.indexOf(done) + 1).every((e) => e.type === 'ping')).toBe(true);
    const types = events.map((e) => e.type);
    expect(types.slice(-5)).toEqual(['response.output_audio.done', 'response.output_audio_transcript.done', 'response.content_part.done', 'response.output_item.done', 'response.done']);
    const sentMs = events.filter((e) => e.type === 'response.output_audio.delta').reduce((n, e) => n + Buffer.from(e.delta, 'base64').length / 48, 0);
    // Paced in real time: a cancel after the second chunk leaves most of a multi-second answer unsent.
    expect(sentMs).toBeLessThan(done.response.usage.output_token_details.audio_tokens * 50 + 1);
    expect(sentMs).toBeLessThan(2000);
    c.close();
  });

  it('truncates an answer\'s transcript to the words heard by audio_end_ms', async () => {
    const c = await session(sb);
    say(c, 'Say One two three four five six seven eight nine ten.');
    c.send({ type: 'response.create' });
    const done = await c.until('response.done');
    const item = done.response.output[0];
    const full = item.content[0].transcript as string;
    const ms = done.response.usage.output_token_details.audio_tokens * 50;
    c.send({ type: 'conversation.item.truncate', item_id: item.id, content_index: 0, audio_end_ms: Math.round(ms / 2) });
    expect(await c.until('conversation.item.truncated')).toMatchObject({ item_id: item.id, content_index: 0, audio_end_ms: Math.round(ms / 2) });
    c.send({ type: 'conversation.item.retrieve', item_id: item.id });
    const cut = (await c.until('conversation.item.retrieved')).item.content[0].transcript as string;
    expect(full.startsWith(cut)).toBe(true);
    expect(cut.length).toBeGreaterThan(5);
    expect(cut.length).toBeLessThan(full.length - 5);
    // Whole words only.
    expect(full[cut.length] === ' ' || /[.,]/.test(full[cut.length])).toBe(true);
    const errors: Array<[Record<string, unknown>, string]> = [
      [{ item_id: item.id, content_index: 0, audio_end_ms: ms * 10 }, 'past the end'],
      [{ item_id: item.id, content_index: 1, audio_end_ms: 10 }, 'content_index 1 is not an audio part'],
      [{ item_id: 'item_nope', content_index: 0, audio_end_ms: 10 }, 'No item item_nope'],
      [{ item_id: c.events.find((e) => e.type === 'conversation.item.added')?.item.id, content_index: 0, audio_end_ms: 10 }, 'not an assistant message with audio'],
    ];
    for (const [i, [fields, message]] of errors.entries()) {
      c.send({ type: 'conversation.item.truncate', ...fields });
      expect((await c.until('error', i + 1)).error.message).toContain(message);
    }
    c.close();
  });

  it('sends ping keep-alives with the sandbox time', async () => {
    const c = await connect(sb, { headers: auth });
    const ping = await c.until('ping', 2);
    expect(ping.event_id).toMatch(/^event_/);
    expect(typeof ping.timestamp).toBe('number');
    expect(Math.abs(ping.timestamp - Date.now())).toBeLessThan(60_000);
    c.close();
  });
});
