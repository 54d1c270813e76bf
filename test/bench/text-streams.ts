/**
 * Long Responses and Messages streams through our client path (SseParser + JSON.parse + the
 * family's assembler producing the final object) against the official SDKs' stream handling over
 * the same recorded bytes, in the same run: openai's Stream.fromSSEResponse for Responses and
 * @anthropic-ai/sdk's Stream.fromSSEResponse for Messages, each iterating events and accumulating
 * the text. Also, as the closest match to our final object, each SDK's own accumulating helper
 * (openai `responses.stream().finalResponse()`, Anthropic `messages.stream().finalMessage()`)
 * through a client whose fetch returns the recorded bytes. Every side must end with the same
 * text, else the run throws (it would compare different work). Reports MB/s and events/s as
 * medians. `npx tsx test/bench/text-streams.ts`.
 */
import Anthropic from '@anthropic-ai/sdk';
import { Stream as AnthropicStream } from '@anthropic-ai/sdk/core/streaming';
import OpenAI from 'openai';
import { Stream as OpenAIStream } from 'openai/streaming';
import { pathToFileURL } from 'node:url';
import type { MessagesStreamEvent } from '../../shared/wire/messages';
import type { ResponseStreamEvent } from '../../shared/wire/responses';
import { MessagesAssembler } from '../../main/api/messages-assembler';
import { ResponsesAssembler } from '../../main/api/responses-assembler';
import { SseParser } from '../../main/api/sse';
import { mulberry32, networkReads, readable, RUNS, timeMedian, WORDS } from './recorded-bytes';

const TEXT_DELTAS = 20_000;
const REASONING_DELTAS = 2_000;
const PING_EVERY = 5_000;

/** What a stream carried, read the same way by both sides. */
interface Produced {
  events: number;
  text: string;
  reasoning: string;
}

/** A recorded stream and what a correct reader must make of it. */
interface Recorded {
  bytes: Uint8Array;
  expected: Produced;
}

function words(random: () => number, n: number): string[] {
  return Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]);
}

/** Frames with `event:` lines as both families send them (wire-notes §1.1). */
function framer(): { frame(type: string, payload: object): void; done(): string; count(): number } {
  const frames: string[] = [];
  return {
    frame: (type, payload) => void frames.push(`event: ${type}\ndata: ${JSON.stringify(payload)}\n\n`),
    done: () => [...frames, 'data: [DONE]\n\n'].join(''),
    count: () => frames.length,
  };
}

/** A reasoning model answering with text on /v1/responses (wire-notes §1.3). */
function responsesStream(random: () => number): Recorded {
  const id = '769f3302-64f9-4c72-2b48-860c87fd9b2a';
  const rs = `rs_${id}`;
  const msg = `msg_${id}`;
  const f = framer();
  let seq = 0;
  const ev = (type: string, body: object): void => f.frame(type, { sequence_number: seq++, type, ...body });
  const base = { created_at: 1763853500, id, model: 'svc-code-fast-1', object: 'response', output: [] as unknown[], parallel_tool_calls: true, previous_response_id: null, reasoning: { effort: null, summary: null }, text: { format: { type: 'text' } }, tool_choice: 'auto', tools: [], store: true, metadata: {}, status: 'in_progress' };
  ev('response.created', { response: base });
  ev('response.in_progress', { response: base });
  const reasoning = words(random, REASONING_DELTAS);
  const summary = reasoning.join('');
  ev('response.output_item.added', { item: { id: rs, summary: [], type: 'reasoning', status: 'in_progress' }, output_index: 0 });
  ev('response.reasoning_summary_part.added', { item_id: rs, output_index: 0, part: { text: '', type: 'summary_text' }, summary_index: 0 });
  for (const delta of reasoning) ev('response.reasoning_summary_text.delta', { delta, item_id: rs, output_index: 0, summary_index: 0 });
  ev('response.reasoning_summary_text.done', { item_id: rs, output_index: 0, summary_index: 0, text: summary });
  ev('response.reasoning_summary_part.done', { item_id: rs, output_index: 0, part: { text: summary, type: 'summary_text' }, summary_index: 0 });
  const rsItem = { id: rs, summary: [{ text: summary, type: 'summary_text' }], type: 'reasoning', status: 'completed' };
  ev('response.output_item.done', { item: rsItem, output_index: 0 });
  const answer = words(random, TEXT_DELTAS);
  const text = answer.join('');
  ev('response.output_item.added', { item: { content: [], id: msg, role: 'assistant', type: 'message', status: 'in_progress' }, output_index: 1 });
  ev('response.content_part.added', { content_index: 0, item_id: msg, output_index: 1, part: { type: 'output_text', text: '', logprobs: [], annotations: [] } });
  for (const delta of answer) ev('response.output_text.delta', { content_index: 0, delta, item_id: msg, output_index: 1, logprobs: [] });
  const part = { type: 'output_text', text, logprobs: [], annotations: [] };
  ev('response.output_text.done', { content_index: 0, item_id: msg, output_index: 1, text });
  ev('response.content_part.done', { content_index: 0, item_id: msg, output_index: 1, part });
  const msgItem = { content: [part], id: msg, role: 'assistant', type: 'message', status: 'completed' };
  ev('response.output_item.done', { item: msgItem, output_index: 1 });
  const usage = { input_tokens: 216, input_tokens_details: { cached_tokens: 192 }, output_tokens: TEXT_DELTAS + REASONING_DELTAS, output_tokens_details: { reasoning_tokens: REASONING_DELTAS }, total_tokens: TEXT_DELTAS + REASONING_DELTAS + 216 };
  ev('response.completed', { response: { ...base, status: 'completed', output: [rsItem, msgItem], usage } });
  return { bytes: new TextEncoder().encode(f.done()), expected: { events: f.count(), text, reasoning: summary } };
}

/** A thinking model answering with text on /v1/messages (wire-notes §1.4), with keep-alive pings. */
function messagesStream(random: () => number): Recorded {
  const f = framer();
  const ev = (type: string, body: object = {}): void => f.frame(type, { type, ...body });
  ev('message_start', { message: { id: '5d0c2a7e-9b1f-4c11-8e52-3f1d2b9a7c40', type: 'message', role: 'assistant', model: 'svc-4-latest', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 40, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 } } });
  const thinking = words(random, REASONING_DELTAS);
  ev('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } });
  for (const t of thinking) ev('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: t } });
  ev('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: 'EqQBCkYIBhgCIkB0bmV0d29yay1zaWduYXR1cmU=' } });
  ev('content_block_stop', { index: 0 });
  const answer = words(random, TEXT_DELTAS);
  ev('content_block_start', { index: 1, content_block: { type: 'text', text: '' } });
  answer.forEach((text, i) => {
    ev('content_block_delta', { index: 1, delta: { type: 'text_delta', text } });
    if (i % PING_EVERY === PING_EVERY - 1) ev('ping');
  });
  ev('content_block_stop', { index: 1 });
  ev('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: TEXT_DELTAS + REASONING_DELTAS } });
  ev('message_stop');
  const pings = Math.floor(TEXT_DELTAS / PING_EVERY);
  // The Anthropic SDK drops pings; count only what both sides hand on as events.
  return { bytes: new TextEncoder().encode(f.done()), expected: { events: f.count() - pings, text: answer.join(''), reasoning: thinking.join('') } };
}

function sseResponse(chunks: Uint8Array[]): Response {
  return new Response(readable(chunks), { headers: { 'content-type': 'text/event-stream' } });
}

/** One family's side of our client: feed parsed frames, then read the final object's texts. */
interface Family {
  push(parsed: unknown): void;
  finish(): Produced;
}

function responsesFamily(): Family {
  const a = new ResponsesAssembler();
  return {
    push: (parsed) => a.push(parsed as ResponseStreamEvent),
    finish: () => {
      const r = a.result();
      const message = r.output.find((o) => o.type === 'message');
      const reasoning = r.output.find((o) => o.type === 'reasoning');
      const part = message?.type === 'message' ? message.content[0] : undefined;
      return {
        events: a.events,
        text: part?.type === 'output_text' ? part.text : '',
        reasoning: reasoning?.type === 'reasoning' ? reasoning.summary.map((s) => s.text).join('') : '',
      };
    },
  };
}

function messagesFamily(): Family {
  const a = new MessagesAssembler();
  return {
    // Our Messages reader hands pings on too (the assembler ignores them); the SDK drops them.
    push: (parsed) => {
      if ((parsed as { type?: unknown }).type !== 'ping') a.push(parsed as MessagesStreamEvent);
    },
    finish: () => {
      const content = a.result().content;
      const text = content.find((b) => b.type === 'text');
      const thinking = content.find((b) => b.type === 'thinking');
      return { events: a.events, text: text?.type === 'text' ? text.text : '', reasoning: thinking?.type === 'thinking' ? thinking.thinking : '' };
    },
  };
}

/** Ours, synchronous: what main/api/client.ts + text-stream.ts do per body chunk. */
function oursSync(chunks: Uint8Array[], family: Family): Produced {
  const parser = new SseParser();
  const take = (events: { data: string }[]): void => {
    for (const e of events) if (e.data !== '[DONE]') family.push(JSON.parse(e.data));
  };
  for (const c of chunks) take(parser.push(c));
  take(parser.end());
  return family.finish();
}

/** Ours over the same web ReadableStream the SDKs read, so stream overhead is equal. */
async function oursStream(chunks: Uint8Array[], family: Family): Promise<Produced> {
  const parser = new SseParser();
  const reader = readable(chunks).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    for (const e of done ? parser.end() : parser.push(value)) if (e.data !== '[DONE]') family.push(JSON.parse(e.data));
    if (done) return family.finish();
  }
}

/** openai SDK: decode the events and accumulate text the way a caller of the raw stream does. */
async function openaiResponses(chunks: Uint8Array[]): Promise<Produced> {
  const stream = OpenAIStream.fromSSEResponse<{ type: string; delta?: string }>(sseResponse(chunks), new AbortController());
  let events = 0;
  let text = '';
  let reasoning = '';
  for await (const e of stream) {
    events++;
    if (e.type === 'response.output_text.delta') text += e.delta;
    else if (e.type === 'response.reasoning_summary_text.delta') reasoning += e.delta;
  }
  return { events, text, reasoning };
}

/** @anthropic-ai/sdk: the same for Messages events. */
async function anthropicMessages(chunks: Uint8Array[]): Promise<Produced> {
  type Delta = { type: string; text?: string; thinking?: string };
  const stream = AnthropicStream.fromSSEResponse<{ type: string; delta?: Delta }>(sseResponse(chunks), new AbortController());
  let events = 0;
  let text = '';
  let reasoning = '';
  for await (const e of stream) {
    events++;
    if (e.type !== 'content_block_delta' || !e.delta) continue;
    if (e.delta.type === 'text_delta') text += e.delta.text;
    else if (e.delta.type === 'thinking_delta') reasoning += e.delta.thinking;
  }
  return { events, text, reasoning };
}

const FAKE = { apiKey: 'bench', baseURL: 'http://bench.invalid', maxRetries: 0 };

/** openai's ResponseStream helper: the final Response it assembles, as a user of the SDK gets it. */
async function openaiResponseStream(chunks: Uint8Array[]): Promise<Produced> {
  const client = new OpenAI({ ...FAKE, fetch: async () => sseResponse(chunks) });
  const stream = client.responses.stream({ model: 'svc-code-fast-1', input: 'bench' });
  let events = 0;
  stream.on('event', () => void events++);
  const final = await stream.finalResponse();
  const reasoning = final.output.flatMap((o) => (o.type === 'reasoning' ? (o.summary ?? []).map((s) => s.text) : []));
  return { events, text: final.output_text, reasoning: reasoning.join('') };
}

/** Anthropic's MessageStream helper: the final Message it assembles. */
async function anthropicMessageStream(chunks: Uint8Array[]): Promise<Produced> {
  const client = new Anthropic({ ...FAKE, fetch: async () => sseResponse(chunks) });
  const stream = client.messages.stream({ model: 'svc-4-latest', max_tokens: 64_000, messages: [{ role: 'user', content: 'bench' }] });
  let events = 0;
  stream.on('streamEvent', () => void events++);
  const final = await stream.finalMessage();
  const text = final.content.flatMap((b) => (b.type === 'text' ? [b.text] : []));
  const thinking = final.content.flatMap((b) => (b.type === 'thinking' ? [b.thinking] : []));
  return { events, text: text.join(''), reasoning: thinking.join('') };
}

interface Measured {
  mbPerS: number;
  eventsPerS: number;
  medianMs: number;
  produced: Produced;
}

async function measure(fn: () => Produced | Promise<Produced>, bytes: number): Promise<Measured> {
  const { mbPerS, medianMs, result } = await timeMedian(fn, bytes);
  return { mbPerS, eventsPerS: Math.round(result.events / (medianMs / 1000)), medianMs, produced: result };
}

/** Throws unless every side read exactly what the recording holds. */
function checkSame(kind: string, expected: Produced, sides: Record<string, Produced>): void {
  for (const [name, got] of Object.entries(sides)) {
    for (const key of ['events', 'text', 'reasoning'] as const) {
      if (got[key] !== expected[key]) {
        const show = (v: string | number): string => (typeof v === 'number' ? String(v) : `${v.length} chars`);
        throw new Error(`${kind}: ${name} produced different ${key} (${show(got[key])}, expected ${show(expected[key])})`);
      }
    }
  }
}

type SdkSide = (chunks: Uint8Array[]) => Promise<Produced>;

async function compare(kind: string, recorded: Recorded, family: () => Family, sdkName: string, sdk: SdkSide, helperName: string, helper: SdkSide, random: () => number): Promise<Record<string, unknown>> {
  const { bytes, expected } = recorded;
  const chunks = networkReads(bytes, random);
  const ours = await measure(() => oursSync(chunks, family()), bytes.length);
  const oursViaStream = await measure(() => oursStream(chunks, family()), bytes.length);
  const theirs = await measure(() => sdk(chunks), bytes.length);
  const theirHelper = await measure(() => helper(chunks), bytes.length);
  checkSame(kind, expected, { ours: ours.produced, oursViaReadableStream: oursViaStream.produced, [sdkName]: theirs.produced, [helperName]: theirHelper.produced });
  const figures = (m: Measured) => ({ mbPerS: m.mbPerS, eventsPerS: m.eventsPerS, medianMs: m.medianMs });
  return {
    events: expected.events,
    textChars: expected.text.length,
    bytes: bytes.length,
    reads: chunks.length,
    runs: RUNS,
    ours: figures(ours),
    oursViaReadableStream: figures(oursViaStream),
    [sdkName]: figures(theirs),
    [helperName]: figures(theirHelper),
    speedupVsSdk: Math.round((theirs.medianMs / oursViaStream.medianMs) * 100) / 100,
    speedupVsSdkHelper: Math.round((theirHelper.medianMs / oursViaStream.medianMs) * 100) / 100,
  };
}

/** Runs both comparisons and returns the figures. */
export async function run(): Promise<Record<string, unknown>> {
  const random = mulberry32(7);
  const responses = await compare('responses', responsesStream(random), responsesFamily, 'openaiSdk', openaiResponses, 'openaiSdkResponseStream', openaiResponseStream, random);
  const messages = await compare('messages', messagesStream(random), messagesFamily, 'anthropicSdk', anthropicMessages, 'anthropicSdkMessageStream', anthropicMessageStream, random);
  return { responses, messages };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  run().then(
    (r) => process.stdout.write(`${JSON.stringify(r, null, 2)}\n`),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
