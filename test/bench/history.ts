/**
 * History benchmark: a temp database with 100,000 realistic recorded runs (varied prompts and
 * outputs from a few hundred characters to a few KB, several models and statuses, streamed runs
 * with their events), inserted the way the app records them (insert, then the finishing update)
 * in batched transactions. Then p50/p95 latency of the History queries a user triggers: the first
 * page, page 3 by cursor, full-text search (common, rare and short words, a typed prefix, two
 * words, page 3 of a search), a model filter with a query, a status filter, and the model list. Run alone with `npx tsx test/bench/history.ts`.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HistorySearchInput } from '../../shared/contract/history';
import type { RunStatus } from '../../shared/contract/runs';
import type { ChatCompletion } from '../../shared/wire/chat';
import { closeDatabase, openDatabase, type Db } from '../../main/store/db';
import { appendRunEvents } from '../../main/store/run-events';
import { insertRun, runModels, searchRuns, updateRun } from '../../main/store/runs';

const RUNS = 100_000;
const BATCH = 1_000;
const PAGE = 50;
const WARMUP = 3;
const SAMPLES = 40;
export const RARE_WORD = 'quetzalcoatlus';
export const RARE_EVERY = 5_000;

export const MODELS = ['grok-4', 'grok-4', 'grok-4', 'grok-3-mini', 'grok-3-mini', 'grok-code-fast-1', 'grok-4-fast-reasoning', 'grok-2-vision'];
export const STATUSES: RunStatus[] = [...Array<RunStatus>(17).fill('completed'), 'error', 'cancelled', 'incomplete'];
const COMMON = 'the a to of and in is for that with it this on as be are you can or by'.split(' ');
const TOPICS = (
  'database index query transaction migration schema function variable closure promise async await stream ' +
  'buffer socket request response header cookie session token cache memory thread process kernel driver ' +
  'network latency throughput benchmark profile optimize optimization optimal compiler parser grammar ' +
  'recursion iterator generator pattern factory adapter observer reducer component render template style ' +
  'layout grid flexbox animation gradient shadow typography palette contrast accessibility keyboard focus ' +
  'mountain river ocean forest desert glacier volcano island valley canyon weather climate storm thunder ' +
  'history empire revolution treaty dynasty archive manuscript poem novel chapter character dialogue plot ' +
  'recipe flour butter sugar garlic onion tomato pepper basil oven skillet simmer roast bake knead dough ' +
  'invoice budget revenue margin forecast ledger audit payroll contract clause liability warranty lease ' +
  'protein enzyme molecule electron photon quantum gravity orbit planet comet nebula galaxy telescope'
).split(' ');

/** A deterministic generator so every run of the benchmark measures the same data. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function text(random: () => number, minChars: number, maxChars: number, extra?: string): string {
  // Skewed towards shorter texts, as real prompts are.
  const target = Math.floor(minChars + (maxChars - minChars) * random() ** 2);
  const words: string[] = [];
  let length = 0;
  while (length < target) {
    const word = random() < 0.45 ? COMMON[Math.floor(random() * COMMON.length)] : TOPICS[Math.floor(random() ** 1.5 * TOPICS.length)];
    words.push(word);
    length += word.length + 1;
  }
  if (extra) words.splice(Math.floor(random() * words.length), 0, extra);
  return `${words.join(' ')}.`;
}

function completion(model: string, content: string, index: number): ChatCompletion {
  return {
    id: `cmpl-${index}`,
    object: 'chat.completion',
    created: 1_700_000_000 + index,
    model,
    choices: [{ index: 0, finish_reason: 'stop', logprobs: null, message: { role: 'assistant', content, reasoning_content: null, refusal: null, tool_calls: null } }],
    citations: null,
    output_files: null,
    service_tier: 'default',
    system_fingerprint: null,
    usage: {
      prompt_tokens: 300,
      completion_tokens: Math.ceil(content.length / 4),
      total_tokens: 300 + Math.ceil(content.length / 4),
      cost_in_usd_ticks: 25_000 + content.length * 10,
      num_sources_used: 0,
      prompt_tokens_details: { text_tokens: 300, audio_tokens: 0, image_tokens: 0, cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    },
  };
}

function record(db: Db, random: () => number, index: number, createdAt: number): void {
  const model = MODELS[Math.floor(random() * MODELS.length)];
  const status = STATUSES[Math.floor(random() * STATUSES.length)];
  const prompt = text(random, 200, 3_000, index % RARE_EVERY === 7 ? RARE_WORD : undefined);
  const output = status === 'error' ? '' : text(random, 300, 4_000);
  const stream = random() < 0.6;
  const id = `run${index.toString(36).padStart(6, '0')}${Math.floor(random() * 1e9).toString(36)}`;
  insertRun(db, {
    id,
    createdAt,
    endpoint: 'chat.completions',
    model,
    connectionId: 'sandbox',
    connectionName: 'Sandbox',
    isSandbox: true,
    request: { method: 'POST', url: 'http://127.0.0.1:7777/v1/chat/completions', headers: { 'content-type': 'application/json' }, body: { model, stream, messages: [{ role: 'user', content: prompt }] } },
    promptText: prompt,
    status: 'pending',
  });
  // Streamed runs keep their SSE events; chunk them coarsely so 100k runs stay a few hundred MB.
  const events = stream ? Array.from({ length: Math.ceil(output.length / 160) }, (_, i) => ({ t: 100 + i * 12, data: JSON.stringify({ id: `cmpl-${index}`, choices: [{ index: 0, delta: { content: output.slice(i * 160, i * 160 + 160) } }] }) })) : [];
  updateRun(db, id, {
    status,
    response: { status: status === 'error' ? 429 : 200, headers: { 'x-request-id': `req-${index}` }, body: null },
    output: output ? completion(model, output, index) : null,
    outputText: output,
    error: status === 'error' ? { code: 'api_error', message: 'Rate limited', status: 429 } : null,
    timings: { startedAt: createdAt, ttfbMs: 90 + Math.floor(random() * 400), totalMs: 500 + Math.floor(random() * 20_000) },
    costTicks: 25_000 + output.length * 10,
  }, createdAt);
  if (events.length) appendRunEvents(db, id, events);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export function measure(fn: () => number): { p50Ms: number; p95Ms: number; items: number } {
  let items = 0;
  for (let i = 0; i < WARMUP; i++) items = fn();
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    fn();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const round = (ms: number): number => Math.round(ms * 100) / 100;
  return { p50Ms: round(percentile(times, 50)), p95Ms: round(percentile(times, 95)), items };
}

/**
 * p50/p95 of the History queries a user triggers (first page, page 3, full-text searches, filters,
 * the model list) over `db`, which must hold a history made with RARE_WORD every RARE_EVERY runs.
 */
export function measureQueries(db: Db): { queries: Record<string, HistorySearchInput>; latency: Record<string, unknown> } {
  const page3 = (input: HistorySearchInput): HistorySearchInput => {
    const first = searchRuns(db, input);
    const second = searchRuns(db, { ...input, cursor: first.nextCursor ?? undefined });
    return { ...input, cursor: second.nextCursor ?? undefined };
  };
  const queries: Record<string, HistorySearchInput> = {
    firstPage: { limit: PAGE },
    page3ByCursor: page3({ limit: PAGE }),
    ftsCommonWord: { limit: PAGE, query: 'the ' },
    ftsCommonWordPage3: page3({ limit: PAGE, query: 'the ' }),
    ftsShortWord: { limit: PAGE, query: 'a' },
    ftsTopicWord: { limit: PAGE, query: 'database ' },
    ftsRareWord: { limit: PAGE, query: RARE_WORD },
    ftsPrefix: { limit: PAGE, query: 'optim' },
    ftsTwoWords: { limit: PAGE, query: 'glacier volcano ' },
    modelFilterWithQuery: { limit: PAGE, model: 'grok-3-mini', query: 'recipe ' },
    statusFilter: { limit: PAGE, status: 'cancelled' },
  };
  const latency: Record<string, unknown> = {};
  for (const [name, input] of Object.entries(queries)) latency[name] = measure(() => searchRuns(db, input).items.length);
  latency.runModels = measure(() => runModels(db).length);
  return { queries, latency };
}

/** Records `runs` generated runs into `db` in batched transactions; returns the time taken. */
export function buildHistory(db: Db, runs: number): number {
  const random = prng(42);
  const start = Date.UTC(2025, 0, 1);
  const started = performance.now();
  for (let batch = 0; batch < runs; batch += BATCH) {
    db.transaction(() => {
      for (let i = batch; i < Math.min(batch + BATCH, runs); i++) record(db, random, i, start + i * 37_000);
    })();
  }
  return performance.now() - started;
}

/** Builds the database, measures, cleans up and returns the figures. */
export async function run(options: { runs?: number } = {}): Promise<Record<string, unknown>> {
  const runs = options.runs ?? RUNS;
  const dir = mkdtempSync(join(tmpdir(), 'bench-history-'));
  const path = join(dir, 'history.db');
  const db = openDatabase(path);
  try {
    const insertMs = buildHistory(db, runs);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.pragma('optimize');

    const { queries, latency } = measureQueries(db);
    return {
      runs,
      insert: { totalMs: Math.round(insertMs), runsPerSecond: Math.round(runs / (insertMs / 1000)), batch: BATCH },
      databaseMb: Math.round(statSync(path).size / 2 ** 20),
      pageSize: PAGE,
      samples: SAMPLES,
      queries: Object.fromEntries(Object.entries(queries).map(([name, input]) => [name, { ...input, cursor: input.cursor ? '(page 3)' : undefined }])),
      latency,
    };
  } finally {
    closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const runs = process.argv[2] ? Number(process.argv[2]) : undefined;
  void run({ runs }).then((figures) => process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`));
}
