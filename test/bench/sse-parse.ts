/**
 * SSE parsing throughput: our SseParser (+ JSON.parse of each data line) against the official
 * openai SDK's stream decoding (Stream.fromSSEResponse) over the same recorded chat byte stream,
 * in the same run. Reports MB/s as the median of several runs. `npx tsx test/bench/sse-parse.ts`.
 */
import { pathToFileURL } from 'node:url';
import { Stream } from 'openai/streaming';
import { SseParser } from '../../main/api/sse';
import { mulberry32, networkReads, readable, RUNS, timeMedian, WORDS } from './recorded-bytes';

const FRAMES = 20_000;

/** A chat stream as the service sends it (wire-notes §1.2): reasoning, content, finish, usage, [DONE]. */
function recordedStream(random: () => number): string {
  const head = { id: '7327b9f5-1c2f-0a15-3fef-c14a71c460d3', object: 'chat.completion.chunk', created: 1770774058, model: 'svc-3-mini' };
  const frames: string[] = [];
  for (let i = 0; i < FRAMES; i++) {
    const word = WORDS[Math.floor(random() * WORDS.length)];
    const delta = i < FRAMES / 10 ? { reasoning_content: word, ...(i === 0 ? { role: 'assistant' } : {}) } : { content: word };
    frames.push(`data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta }], system_fingerprint: 'fp_2a885414fb' })}\n\n`);
  }
  frames.push(`data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], system_fingerprint: 'fp_2a885414fb' })}\n\n`);
  frames.push(
    `data: ${JSON.stringify({ ...head, choices: [], usage: { prompt_tokens: 12, completion_tokens: FRAMES, total_tokens: FRAMES + 12, cost_in_usd_ticks: 1466250 } })}\n\n`,
  );
  frames.push('data: [DONE]\n\n');
  return frames.join('');
}

/** Ours, synchronous: what main/api/client.ts does per body chunk. */
function oursSync(chunks: Uint8Array[]): number {
  const parser = new SseParser();
  let items = 0;
  const take = (events: { data: string }[]): void => {
    for (const e of events) {
      if (e.data === '[DONE]') continue;
      JSON.parse(e.data);
      items++;
    }
  };
  for (const c of chunks) take(parser.push(c));
  take(parser.end());
  return items;
}

/** Ours over the same web ReadableStream the SDK reads, so stream overhead is equal. */
async function oursStream(chunks: Uint8Array[]): Promise<number> {
  const parser = new SseParser();
  let items = 0;
  const reader = readable(chunks).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    const events = done ? parser.end() : parser.push(value);
    for (const e of events) {
      if (e.data === '[DONE]') continue;
      JSON.parse(e.data);
      items++;
    }
    if (done) return items;
  }
}

async function openaiSdk(chunks: Uint8Array[]): Promise<number> {
  const response = new Response(readable(chunks), { headers: { 'content-type': 'text/event-stream' } });
  const stream = Stream.fromSSEResponse<unknown>(response, new AbortController());
  let items = 0;
  for await (const _item of stream) items++;
  return items;
}

async function measure(fn: () => number | Promise<number>, bytes: number): Promise<{ mbPerS: number; medianMs: number; items: number }> {
  const { mbPerS, medianMs, result } = await timeMedian(fn, bytes);
  return { mbPerS, medianMs, items: result };
}

/** Runs the comparison and returns the figures. */
export async function run(): Promise<Record<string, unknown>> {
  const random = mulberry32(42);
  const bytes = new TextEncoder().encode(recordedStream(random));
  const chunks = networkReads(bytes, random);
  const ours = await measure(() => oursSync(chunks), bytes.length);
  const oursViaStream = await measure(() => oursStream(chunks), bytes.length);
  const sdk = await measure(() => openaiSdk(chunks), bytes.length);
  if (ours.items !== sdk.items || oursViaStream.items !== sdk.items) {
    throw new Error(`parsers disagree: ours ${ours.items}, ours via stream ${oursViaStream.items}, openai ${sdk.items}`);
  }
  return {
    frames: ours.items,
    bytes: bytes.length,
    reads: chunks.length,
    runs: RUNS,
    ours,
    oursViaReadableStream: oursViaStream,
    openaiSdk: sdk,
    speedupVsOpenai: Math.round((sdk.medianMs / oursViaStream.medianMs) * 100) / 100,
  };
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
