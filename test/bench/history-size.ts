/**
 * History size benchmark: the same 100,000 runs written into two layouts, to compare their size
 * on disk and the History query latencies.
 * - `inline`: today's layout before migration 0007 (schema built from migrations 1-5): the raw
 *   SSE log as a JSON array in `runs.events_json`, written once at the end of the run.
 * - `chunked`: the current layout: the log appended as brotli chunks to `run_event_chunks`, cut
 *   where the recorder cuts them (CHUNK_EVENTS events or CHUNK_MS after a chunk's first event).
 *
 * ONE generator makes every run once and both layouts get it. Streamed runs carry event logs
 * shaped like the embedded sandbox's streams (recorded from it: one token per event, 1-5
 * characters, ~20 ms apart; chat.completion.chunk frames with the id/created/model/fingerprint
 * envelope, Responses' created/in_progress/added/delta/done/completed sequence with the whole
 * response repeated at the end, Messages' message_start/ping/block/delta/stop sequence), with
 * answers of 200-3,000 characters (the sandbox's answers run 600-1,000), so a run has tens to
 * several hundred events. Cancelled and incomplete runs keep a cut log; errors have none.
 *
 * Sizes are the database file plus its WAL after a TRUNCATE checkpoint. Latencies reuse
 * test/bench/history.ts's query set and measuring. `npx tsx test/bench/history-size.ts [runs]`.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CapturedEvent, Endpoint } from '../../shared/contract/runs';
import { CHUNK_EVENTS, CHUNK_MS } from '../../main/services/run-recorder';
import { closeDatabase, openDatabase, type Db } from '../../main/store/db';
import { applyMigrations, MIGRATIONS } from '../../main/store/migrations/index';
import { appendRunEvents } from '../../main/store/run-events';
import { insertRun, updateRun, type NewRun, type RunUpdate } from '../../main/store/runs';
import { measureQueries, MODELS, prng, RARE_EVERY, RARE_WORD, STATUSES, text } from './history';

const RUNS = 100_000;
const BATCH = 500;
const STREAMED = 0.8;
const FINGERPRINT = 'fp_5a1e4b7c2d';

/** One generated run: what is inserted, how it ends, and its raw events. */
export interface GeneratedRun {
  run: NewRun;
  end: RunUpdate;
  events: CapturedEvent[];
}

/** Splits text the way the sandbox streams it: a word with its leading space, long words in 3-5 character pieces. */
function tokens(output: string, random: () => number): string[] {
  const out: string[] = [];
  for (const word of output.match(/\s*\S+/g) ?? []) {
    let rest = word;
    while (rest.length > 7) {
      const take = 3 + Math.floor(random() * 3);
      out.push(rest.slice(0, take));
      rest = rest.slice(take);
    }
    out.push(rest);
  }
  return out;
}

function uuid(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function chatFrames(id: string, created: number, model: string, toks: string[], finished: boolean, usage: object): Array<[string | undefined, string]> {
  const frame = (delta: object, finish: string | null, u: object | null = null, choices = true) =>
    JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: choices ? [{ index: 0, delta, finish_reason: finish }] : [], system_fingerprint: FINGERPRINT, usage: u });
  const frames: Array<[string | undefined, string]> = toks.map((t, i) => [undefined, frame(i === 0 ? { role: 'assistant', content: t } : { content: t }, null)]);
  if (finished) frames.push([undefined, frame({}, 'stop')], [undefined, frame({}, null, usage, false)], [undefined, '[DONE]']);
  return frames;
}

function responseObject(id: string, created: number, model: string, status: string, output: object[], usage: object | null): object {
  return {
    id, object: 'response', created_at: created, completed_at: status === 'completed' ? created + 3 : null, model, status, background: false, store: true,
    error: null, incomplete_details: null, instructions: null, max_output_tokens: null, max_tool_calls: null, metadata: {}, output, parallel_tool_calls: true,
    previous_response_id: null, prompt_cache_key: null, reasoning: { effort: null, summary: null }, safety_identifier: null, service_tier: 'default',
    temperature: null, top_p: null, text: { format: { type: 'text' } }, tool_choice: 'auto', tools: [], top_logprobs: 0, truncation: 'disabled',
    frequency_penalty: 0, presence_penalty: 0, user: null, usage,
  };
}

function responsesFrames(id: string, created: number, model: string, toks: string[], finished: boolean, usage: object): Array<[string | undefined, string]> {
  const item = `msg_${id}`;
  let seq = 0;
  const f = (type: string, body: object): [string, string] => [type, JSON.stringify({ type, ...body, sequence_number: seq++ })];
  const part = (t: string) => ({ type: 'output_text', text: t, logprobs: [], annotations: [] });
  const message = (status: string, t: string | null) => ({ id: item, type: 'message', role: 'assistant', status, content: t === null ? [] : [part(t)] });
  const frames: Array<[string | undefined, string]> = [
    f('response.created', { response: responseObject(id, created, model, 'in_progress', [], null) }),
    f('response.in_progress', { response: responseObject(id, created, model, 'in_progress', [], null) }),
    f('response.output_item.added', { output_index: 0, item: message('in_progress', null) }),
    f('response.content_part.added', { item_id: item, output_index: 0, content_index: 0, part: part('') }),
    ...toks.map((t) => f('response.output_text.delta', { item_id: item, output_index: 0, content_index: 0, delta: t, logprobs: [] })),
  ];
  if (finished) {
    const all = toks.join('');
    frames.push(
      f('response.output_text.done', { item_id: item, output_index: 0, content_index: 0, text: all, logprobs: [] }),
      f('response.content_part.done', { item_id: item, output_index: 0, content_index: 0, part: part(all) }),
      f('response.output_item.done', { output_index: 0, item: message('completed', all) }),
      f('response.completed', { response: responseObject(id, created, model, 'completed', [message('completed', all)], usage) }),
      [undefined, '[DONE]'],
    );
  }
  return frames;
}

function messagesFrames(id: string, model: string, toks: string[], finished: boolean): Array<[string | undefined, string]> {
  const f = (type: string, body: object = {}): [string, string] => [type, JSON.stringify({ type, ...body })];
  const frames: Array<[string | undefined, string]> = [
    f('message_start', { message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 3, output_tokens: 1, cache_read_input_tokens: 10, cache_creation_input_tokens: 0 } } }),
    f('ping'),
    f('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    ...toks.map((t) => f('content_block_delta', { index: 0, delta: { type: 'text_delta', text: t } })),
  ];
  if (finished) {
    frames.push(f('content_block_stop', { index: 0 }), f('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: toks.length } }), f('message_stop'), [undefined, '[DONE]']);
  }
  return frames;
}

const ENDPOINTS: Array<{ endpoint: Endpoint; path: string; weight: number }> = [
  { endpoint: 'chat.completions', path: '/v1/chat/completions', weight: 0.5 },
  { endpoint: 'responses', path: '/v1/responses', weight: 0.25 },
  { endpoint: 'messages', path: '/v1/messages', weight: 0.25 },
];

/** The one generator: run `index` of the benchmark history, deterministic for a given `random`. */
export function generateRun(random: () => number, index: number, createdAt: number): GeneratedRun {
  const pick = random();
  const family = pick < 0.5 ? ENDPOINTS[0] : pick < 0.75 ? ENDPOINTS[1] : ENDPOINTS[2];
  const model = MODELS[Math.floor(random() * MODELS.length)];
  const status = STATUSES[Math.floor(random() * STATUSES.length)];
  const prompt = text(random, 200, 3_000, index % RARE_EVERY === 7 ? RARE_WORD : undefined);
  const full = status === 'error' ? '' : text(random, 200, 3_000);
  const stream = random() < STREAMED;
  const id = `run${index.toString(36).padStart(6, '0')}${Math.floor(random() * 1e9).toString(36)}`;
  const serviceId = uuid(random);
  const created = Math.floor(createdAt / 1000);
  const allTokens = tokens(full, random);
  const finished = status === 'completed';
  const toks = finished ? allTokens : allTokens.slice(0, Math.floor(allTokens.length * random()));
  const output = toks.join('');
  const usage = { prompt_tokens: Math.ceil(prompt.length / 4), completion_tokens: toks.length, total_tokens: Math.ceil(prompt.length / 4) + toks.length, cost_in_usd_ticks: 25_000 + toks.length * 40 };

  const body =
    family.endpoint === 'chat.completions'
      ? { model, stream, messages: [{ role: 'user', content: prompt }], ...(stream ? { stream_options: { include_usage: true } } : {}) }
      : family.endpoint === 'responses'
        ? { model, stream, input: prompt }
        : { model, stream, max_tokens: 4096, messages: [{ role: 'user', content: prompt }] };
  const answer =
    family.endpoint === 'chat.completions'
      ? { id: serviceId, object: 'chat.completion', created, model, choices: [{ index: 0, finish_reason: finished ? 'stop' : null, logprobs: null, message: { role: 'assistant', content: output, refusal: null, tool_calls: null } }], system_fingerprint: FINGERPRINT, usage }
      : family.endpoint === 'responses'
        ? responseObject(serviceId, created, model, finished ? 'completed' : 'incomplete', [{ id: `msg_${serviceId}`, type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: output, logprobs: [], annotations: [] }] }], usage)
        : { id: serviceId, type: 'message', role: 'assistant', model, content: [{ type: 'text', text: output }], stop_reason: finished ? 'end_turn' : null, stop_sequence: null, usage: { input_tokens: usage.prompt_tokens, output_tokens: usage.completion_tokens } };

  const events: CapturedEvent[] = [];
  if (stream && status !== 'error') {
    const frames =
      family.endpoint === 'chat.completions'
        ? chatFrames(serviceId, created, model, toks, finished, usage)
        : family.endpoint === 'responses'
          ? responsesFrames(serviceId, created, model, toks, finished, usage)
          : messagesFrames(serviceId, model, toks, finished);
    let t = 90 + Math.floor(random() * 400);
    for (const [event, data] of frames) {
      events.push({ t, ...(event ? { event } : {}), data });
      t += 12 + Math.floor(random() * 18);
    }
  }
  const ttfbMs = 90 + Math.floor(random() * 400);
  return {
    run: {
      id,
      createdAt,
      endpoint: family.endpoint,
      model,
      connectionId: 'sandbox',
      connectionName: 'Sandbox',
      isSandbox: true,
      request: { method: 'POST', url: `http://127.0.0.1:7777${family.path}`, headers: { 'content-type': 'application/json' }, body },
      promptText: prompt,
      promptPreview: prompt,
      status: 'pending',
    },
    end: {
      status,
      response: { status: status === 'error' ? 429 : 200, headers: { 'content-type': stream ? 'text/event-stream' : 'application/json', 'x-request-id': `req-${index}` }, body: stream || status === 'error' ? null : answer },
      output: status === 'error' ? null : (answer as RunUpdate['output']),
      outputText: output,
      outputPreview: output,
      error: status === 'error' ? { code: 'api_error', message: 'Rate limited', status: 429 } : status === 'incomplete' ? { code: 'stream_incomplete', message: 'The stream ended early.' } : null,
      timings: { startedAt: createdAt, ttfbMs, totalMs: events.at(-1)?.t ?? ttfbMs },
      costTicks: usage.cost_in_usd_ticks,
    },
    events,
  };
}

/** Where the recorder would cut `events` into chunks (CHUNK_EVENTS, or CHUNK_MS after a chunk's first event). */
export function recorderChunks(events: readonly CapturedEvent[]): CapturedEvent[][] {
  const chunks: CapturedEvent[][] = [];
  let pending: CapturedEvent[] = [];
  for (const event of events) {
    if (pending.length > 0 && event.t - pending[0].t >= CHUNK_MS) {
      chunks.push(pending);
      pending = [];
    }
    pending.push(event);
    if (pending.length >= CHUNK_EVENTS) {
      chunks.push(pending);
      pending = [];
    }
  }
  if (pending.length > 0) chunks.push(pending);
  return chunks;
}

/** Today's layout (before 0007): schema from migrations 1-5, same pragmas as openDatabase. */
function openInline(path: string): Db {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  applyMigrations(db, MIGRATIONS.filter((m) => m.version <= 5), 5);
  return db;
}

function writeInline(db: Db, g: GeneratedRun): void {
  insertRun(db, g.run);
  updateRun(db, g.run.id, g.end, g.run.createdAt);
  // As the recorder did at HEAD: the whole log in one write at the end of the run.
  if (g.events.length) db.prepare('UPDATE runs SET events_json = ? WHERE id = ?').run(JSON.stringify(g.events), g.run.id);
}

function writeChunked(db: Db, g: GeneratedRun): void {
  insertRun(db, g.run);
  for (const chunk of recorderChunks(g.events)) appendRunEvents(db, g.run.id, chunk);
  updateRun(db, g.run.id, g.end, g.run.createdAt);
}

function sizeOf(db: Db, path: string): number {
  db.pragma('wal_checkpoint(TRUNCATE)');
  const wal = (() => {
    try {
      return statSync(`${path}-wal`).size;
    } catch {
      return 0;
    }
  })();
  return statSync(path).size + wal;
}

/** Builds both layouts from one generator pass, measures, cleans up and returns the figures. */
export async function run(options: { runs?: number } = {}): Promise<Record<string, unknown>> {
  const runs = options.runs ?? RUNS;
  const dir = mkdtempSync(join(tmpdir(), 'bench-history-size-'));
  const inlinePath = join(dir, 'inline.db');
  const chunkedPath = join(dir, 'chunked.db');
  const inline = openInline(inlinePath);
  const chunked = openDatabase(chunkedPath);
  try {
    const random = prng(7);
    const start = Date.UTC(2025, 0, 1);
    const writeMs = { inline: 0, chunked: 0 };
    let events = 0;
    let streamed = 0;
    let chunks = 0;
    let rawEventBytes = 0;
    for (let batch = 0; batch < runs; batch += BATCH) {
      const generated: GeneratedRun[] = [];
      for (let i = batch; i < Math.min(batch + BATCH, runs); i++) generated.push(generateRun(random, i, start + i * 37_000));
      for (const g of generated) {
        events += g.events.length;
        if (g.events.length) streamed++;
        chunks += recorderChunks(g.events).length;
        for (const e of g.events) rawEventBytes += e.data.length;
      }
      let t0 = performance.now();
      inline.transaction(() => generated.forEach((g) => writeInline(inline, g)))();
      writeMs.inline += performance.now() - t0;
      t0 = performance.now();
      chunked.transaction(() => generated.forEach((g) => writeChunked(chunked, g)))();
      writeMs.chunked += performance.now() - t0;
      if (batch % 10_000 === 0) process.stderr.write(`  history-size: ${batch} / ${runs} runs written\n`);
    }
    const inlineBytes = sizeOf(inline, inlinePath);
    const chunkedBytes = sizeOf(chunked, chunkedPath);
    inline.pragma('optimize');
    chunked.pragma('optimize');
    const mb = (n: number) => Math.round((n / 2 ** 20) * 10) / 10;
    return {
      runs,
      generator: {
        streamedRuns: streamed,
        events,
        eventsPerStreamedRun: Math.round(events / Math.max(1, streamed)),
        rawEventDataMb: mb(rawEventBytes),
        chunks,
        eventsPerChunk: Math.round((events / Math.max(1, chunks)) * 10) / 10,
        rule: { chunkEvents: CHUNK_EVENTS, chunkMs: CHUNK_MS },
      },
      sizeMb: { inline: mb(inlineBytes), chunked: mb(chunkedBytes) },
      ratio: Math.round((chunkedBytes / inlineBytes) * 1000) / 1000,
      targetRatio: 0.25,
      writeMs: { inline: Math.round(writeMs.inline), chunked: Math.round(writeMs.chunked) },
      latency: { inline: measureQueries(inline).latency, chunked: measureQueries(chunked).latency },
    };
  } finally {
    inline.close();
    closeDatabase(chunked);
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const runs = process.argv[2] ? Number(process.argv[2]) : undefined;
  void run({ runs }).then((figures) => process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`));
}
