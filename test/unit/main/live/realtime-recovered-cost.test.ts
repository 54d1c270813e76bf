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
import { priceRecoveredCalls } from '../../../../main/live/realtime-recovered-cost';
import { recoverRecordings } from '../../../../main/services/recording/recover';
import { SessionRecorder } from '../../../../main/services/recording/session-recorder';
import { BlobStore } from '../../../../main/store/blobs';
import { closeDatabase, openDatabase, type Db } from '../../../../main/store/db';
import { getRun } from '../../../../main/store/runs';
import type { TokenPrices } from '../../../../shared/cost';
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
