/**
 * Builders of realistic contract values for renderer tests and screenshots: catalogue entries,
 * usage, run records. Plain data, no DOM.
 */
import { runMetrics } from '../../shared/run-metrics';
import type { CatalogueEntry } from '../../shared/families/models/contract';
import type { CapturedEvent, RunRecord } from '../../shared/contract/runs';
import type { ChatCompletion, ChatUsage } from '../../shared/wire/chat';
import { choicesOf } from '../../shared/text-output';

export function makeEntry(over: Partial<CatalogueEntry> & { id: string }): CatalogueEntry {
  return {
    kind: 'language',
    aliases: [],
    ownedBy: 'sandbox',
    created: 1_760_000_000,
    version: '1.0',
    inputModalities: ['text'],
    outputModalities: ['text'],
    contextLength: 131_072,
    prices: {},
    ...over,
  };
}

/** Four listings' worth: two language models (one with a long-context tier), an image and a video model. */
export function sampleCatalogueEntries(): CatalogueEntry[] {
  return [
    makeEntry({
      id: 'svc-4',
      aliases: ['svc-4-latest'],
      inputModalities: ['text', 'image'],
      contextLength: 256_000,
      prices: {
        prompt_text_token_price: 30_000,
        cached_prompt_text_token_price: 7_500,
        completion_text_token_price: 150_000,
        prompt_image_token_price: 30_000,
        prompt_text_token_price_long_context: 60_000,
        cached_prompt_text_token_price_long_context: 0,
        completion_text_token_price_long_context: 300_000,
        long_context_threshold: 128_000,
      },
    }),
    makeEntry({
      id: 'svc-3-mini',
      aliases: ['svc-3-mini-latest', 'mini'],
      prices: { prompt_text_token_price: 3_000, cached_prompt_text_token_price: 750, completion_text_token_price: 5_000, long_context_threshold: 0 },
    }),
    makeEntry({
      id: 'svc-image-1',
      kind: 'image',
      inputModalities: ['text'],
      outputModalities: ['image'],
      contextLength: null,
      prices: { image_price: 7, prompt_text_token_price: 1_000 },
    }),
    makeEntry({ id: 'svc-video-1', kind: 'video', inputModalities: ['text', 'image'], outputModalities: ['video'], contextLength: null }),
  ];
}

export function makeUsage(over: Partial<ChatUsage> = {}): ChatUsage {
  return {
    prompt_tokens: 24,
    completion_tokens: 48,
    total_tokens: 72,
    cost_in_usd_ticks: 7_920_000,
    num_sources_used: 0,
    prompt_tokens_details: { text_tokens: 24, audio_tokens: 0, image_tokens: 0, cached_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    ...over,
  };
}

export function makeCompletion(contents: string[], over: Partial<ChatCompletion> = {}): ChatCompletion {
  return {
    id: 'cmpl-1',
    object: 'chat.completion',
    created: 1_760_000_000,
    model: 'svc-4',
    choices: contents.map((content, index) => ({
      index,
      finish_reason: 'stop',
      logprobs: null,
      message: { role: 'assistant', content, reasoning_content: null, refusal: null, tool_calls: null },
    })),
    citations: null,
    output_files: null,
    service_tier: 'default',
    system_fingerprint: 'fp_test',
    usage: makeUsage(),
    ...over,
  };
}

let seq = 0;

/** A record's fields, plus the raw events the fake's `history.events` serves for it. */
export type RecordOverrides = Partial<RunRecord> & { events?: CapturedEvent[] };

/** Events by run id: records carry only a count, as main's do. */
const eventsById = new Map<string, CapturedEvent[]>();

/** The events `makeRecord` kept for run `id`; undefined for a run it never made. */
export function fakeEventsOf(id: string): CapturedEvent[] | undefined {
  return eventsById.get(id);
}

export function makeRecord(overrides: RecordOverrides = {}): RunRecord {
  const { events = DEFAULT_EVENTS, ...over } = overrides;
  seq += 1;
  const prompt = over.promptPreview ?? `Question number ${seq}`;
  const output = over.output === undefined ? makeCompletion([`Answer number ${seq}`]) : over.output;
  const base: Omit<RunRecord, 'metrics'> & { metrics?: RunRecord['metrics'] } = {
    id: `run-${seq}`,
    createdAt: 1_760_000_000_000 + seq * 60_000,
    endpoint: 'chat.completions',
    model: 'svc-4',
    status: 'completed',
    connectionId: 'sandbox',
    connectionName: 'Sandbox',
    isSandbox: true,
    promptPreview: prompt,
    outputPreview: choicesOf(over.endpoint ?? 'chat.completions', output)[0]?.content ?? '',
    costTicks: 7_920_000,
    totalMs: 840,
    totalTokens: 72,
    deferredRequestId: null,
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:4010/v1/chat/completions',
      headers: { 'content-type': 'application/json', authorization: '[redacted]' },
      body: { model: over.model ?? 'svc-4', messages: [{ role: 'user', content: prompt }], stream: true },
    },
    response: { status: 200, headers: { 'content-type': 'text/event-stream', 'x-request-id': `req-${seq}` }, body: null },
    eventCount: events.length,
    output,
    error: null,
    timings: { startedAt: 1_760_000_000_000 + seq * 60_000, ttfbMs: 120, totalMs: 840 },
    usage: makeUsage(),
    retries: 0,
    ...over,
  };
  // As main does: the figures History lists come from the record's timings, usage and cost.
  const record: RunRecord = { ...base, metrics: over.metrics ?? runMetrics(base) };
  eventsById.set(record.id, events);
  return record;
}

const DEFAULT_EVENTS: CapturedEvent[] = [
  { t: 120, data: '{"choices":[{"index":0,"delta":{"content":"Answer"}}]}' },
  { t: 180, data: '[DONE]' },
];
