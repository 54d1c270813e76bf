/**
 * The cost of a realtime call a kill cut short: computed from the usage its recorded
 * `response.done` events carried, as the live call prices it (realtimeResponseCost per response:
 * the service's stated cost, else the catalogue prices of the model the session named). Start-up
 * knows only stated costs; priceRecoveredCalls prices the rest once the catalogue can be asked.
 * Against a real database: a session recorded and never closed, then recoverRecordings as at the
 * next start.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recoveredRealtimeOutput } from '../../../../main/live/realtime-recovered';
import { callPrices, modelPrices } from '../../../../main/live/realtime-prices';
import { priceRecoveredCalls } from '../../../../main/live/realtime-recovered-cost';
import { recoverRecordings } from '../../../../main/services/recording/recover';
import { SessionRecorder } from '../../../../main/services/recording/session-recorder';
import { BlobStore } from '../../../../main/store/blobs';
import { closeDatabase, openDatabase, type Db } from '../../../../main/store/db';
import { getRun } from '../../../../main/store/runs';
import type { TokenPrices } from '../../../../shared/cost';
import type { CatalogueEntry } from '../../../../shared/families/models/contract';
import { newRun } from '../store/run-fixtures';

let dir: string;
let db: Db;
let blobs: BlobStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wb-rt-cost-'));
  db = openDatabase(':memory:');
  blobs = new BlobStore(join(dir, 'blobs'));
});
afterEach(() => {
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

const PRICES: Record<string, TokenPrices> = {
  'svc-voice-latest': { prompt_text_token_price: 40_000, cached_prompt_text_token_price: 4_000, completion_text_token_price: 160_000 },
  'svc-voice-fast-1.0': { prompt_text_token_price: 10_000, cached_prompt_text_token_price: 1_000, completion_text_token_price: 50_000 },
};

const done = (id: string, usage: Record<string, unknown>) => ({ type: 'response.done', response: { id, status: 'completed', output: [], usage } });

/** A realtime call recorded up to a kill: never closed. */
function recordCall(id: string, messages: unknown[], model = 'svc-voice-latest'): void {
  const { status: _s, ...run } = newRun(id, 1_700_000_000_000, 'call', { endpoint: 'realtime.call' as never, model });
  let t = 0;
  const rec = SessionRecorder.open({ db, blobs, tracksDir: join(dir, 'tracks'), clock: () => t }, { run, kind: 'realtime' });
  for (const m of messages) {
    t += 10;
    rec.event({ direction: 'in', kind: 'json', data: JSON.stringify(m) });
  }
  rec.event({ direction: 'out', kind: 'json', data: JSON.stringify(done('ours', { cost_in_usd_ticks: 999_999 })) }); // ours: never priced
  rec.flush();
}

const recover = () => recoverRecordings(db, blobs, join(dir, 'tracks'), { outputs: { realtime: recoveredRealtimeOutput } });

describe('the cost of a recovered realtime call', () => {
  it('is priced after start-up from each response.done usage with the prices of the model the session named', async () => {
    recordCall('call1', [
      { type: 'session.created', session: { id: 's1', model: 'svc-voice-latest' } },
      { type: 'conversation.item.input_audio_transcription.completed', item_id: 'u1', transcript: 'Hello there.' },
      done('r1', { input_tokens: 100, output_tokens: 40, input_token_details: { cached_tokens: 0 } }),
      { type: 'session.updated', session: { id: 's1', model: 'svc-voice-fast-1.0' } },
      done('r2', { input_tokens: 300, output_tokens: 60, input_token_details: { cached_tokens: 140 } }),
    ]);
    const report = await recover();
    expect(report.rebuilt).toEqual(['call1']);
    // Start-up: no catalogue, no stated cost: not reported yet, but the usage is there.
    expect(getRun(db, 'call1')).toMatchObject({ status: 'incomplete', costTicks: null, output: { recovered: true, costTicks: null, usage: { responses: 2, inputTokens: 400, outputTokens: 100 } } });

    const asked: string[] = [];
    const prices = async (connectionId: string, model: string) => (asked.push(`${connectionId}/${model}`), PRICES[model] ?? null);
    expect(await priceRecoveredCalls({ db, prices }, report.rebuilt)).toBe(1);
    const expected = 100 * 40_000 + 40 * 160_000 + (160 * 10_000 + 140 * 1_000 + 60 * 50_000);
    const run = getRun(db, 'call1')!;
    expect(run.costTicks).toBe(expected);
    expect(run.metrics.costTicks).toBe(expected);
    expect(run.output).toMatchObject({ object: 'realtime_call', recovered: true, costTicks: expected, transcript: [{ role: 'user', text: 'Hello there.' }] });
    expect(run.outputPreview).toBe('User: Hello there.'); // kept as start-up wrote it
    expect(new Set(asked)).toEqual(new Set(['sandbox/svc-voice-latest', 'sandbox/svc-voice-fast-1.0']));
    // Priced once: a second pass leaves it.
    expect(await priceRecoveredCalls({ db, prices }, report.rebuilt)).toBe(0);
  });

  it("keeps the service's stated cost from start-up, and stays unknown when the catalogue cannot be asked", async () => {
    recordCall('stated', [done('r1', { input_tokens: 10, output_tokens: 5, cost_in_usd_ticks: 12_345 }), done('r2', { input_tokens: 20, output_tokens: 5, cost_in_usd_ticks: 55 })]);
    recordCall('unpriced', [{ type: 'session.created', session: { id: 's2' } }, done('r1', { input_tokens: 10, output_tokens: 5 })]);
    const report = await recover();
    expect(getRun(db, 'stated')).toMatchObject({ costTicks: 12_400, output: { costTicks: 12_400 } });
    const offline = async () => Promise.reject(new Error('connect ECONNREFUSED'));
    const lines: string[] = [];
    expect(await priceRecoveredCalls({ db, prices: offline, log: (l) => lines.push(l) }, report.rebuilt)).toBe(0);
    expect(getRun(db, 'unpriced')!.costTicks).toBeNull();
    expect(lines).toEqual([expect.stringMatching(/no prices for the interrupted call unpriced \(connect ECONNREFUSED\)/)]);
    // The run's own model (no session model recorded) is priced once the catalogue answers.
    expect(await priceRecoveredCalls({ db, prices: async (_c, model) => PRICES[model] ?? null }, report.rebuilt)).toBe(1);
    expect(getRun(db, 'unpriced')!.costTicks).toBe(10 * 40_000 + 5 * 160_000);
  });
});

describe('one price lookup for live and recovered calls (modelPrices)', () => {
  const entries = Object.entries(PRICES).map(([id, prices]) => ({ id, aliases: id === 'svc-voice-latest' ? ['svc-voice'] : [], prices }) as unknown as CatalogueEntry);

  /**
   * The models service's catalogue as far as prices care: a fetch answers only when told (a real
   * request takes a while), and once answered the catalogue is held (the service's cache).
   * `fetched` counts the requests that went to the service.
   */
  function gatedCatalogue() {
    const fetched: string[] = [];
    const held = new Map<string, { entries: CatalogueEntry[] }>();
    const waiting: Array<(answer: { entries: CatalogueEntry[] } | Error) => void> = [];
    const catalogue = async (connectionId: string) => {
      const cached = held.get(connectionId);
      if (cached) return cached;
      fetched.push(connectionId);
      return new Promise<{ entries: CatalogueEntry[] }>((resolve, reject) =>
        waiting.push((a) => (a instanceof Error ? reject(a) : (held.set(connectionId, a), resolve(a)))),
      );
    };
    const answer = (a: { entries: CatalogueEntry[] } | Error) => waiting.splice(0).forEach((w) => w(a));
    return { fetched, catalogue, answer };
  }

  it('a call starting while the recovered calls are priced shares their one catalogue request', async () => {
    recordCall('call1', [
      { type: 'session.created', session: { id: 's1', model: 'svc-voice-latest' } },
      { type: 'session.updated', session: { id: 's1', model: 'svc-voice-fast-1.0' } },
      done('r1', { input_tokens: 100, output_tokens: 40, input_token_details: { cached_tokens: 0 } }),
    ]);
    const report = await recover();
    const gate = gatedCatalogue();
    const prices = modelPrices(gate.catalogue);
    const recovered = priceRecoveredCalls({ db, prices }, report.rebuilt);
    const live = callPrices(prices, 'sandbox', () => {});
    const loaded = live.load('svc-voice'); // an alias: found by the same lookup
    await new Promise((r) => setImmediate(r));
    expect(gate.fetched).toEqual(['sandbox']);
    gate.answer({ entries });
    await loaded;
    expect(await recovered).toBe(1);
    expect(gate.fetched).toEqual(['sandbox']);
    expect(live.current).toEqual(PRICES['svc-voice-latest']);
    expect(getRun(db, 'call1')!.costTicks).toBe(100 * 10_000 + 40 * 50_000);
  });

  it('keeps no failed request: the next asker asks again; another connection asks its own', async () => {
    const gate = gatedCatalogue();
    const prices = modelPrices(gate.catalogue);
    const first = prices('sandbox', 'svc-voice-latest');
    const other = prices('team-b', 'svc-voice-latest');
    await new Promise((r) => setImmediate(r));
    gate.answer(new Error('connect ECONNREFUSED'));
    await expect(first).rejects.toThrow('ECONNREFUSED');
    await expect(other).rejects.toThrow('ECONNREFUSED');
    const again = prices('sandbox', 'svc-unknown');
    await new Promise((r) => setImmediate(r));
    gate.answer({ entries });
    expect(await again).toBeNull();
    expect(gate.fetched).toEqual(['sandbox', 'team-b', 'sandbox']);
  });
});
