/**
 * The cost of the realtime calls a crash cut short, once the app is up. Start-up rebuilds a
 * crashed call's output from its events (realtime-recovered.ts) before anything can reach the
 * service, so only costs the service stated in the usage are known then; the model's prices come
 * from the connection's catalogue (a request). This runs after start-up, in the background: for
 * each such call still without a cost it fetches the prices of the models the call used and
 * rebuilds the output with them, as the live call would have priced it. A failure (the service
 * unreachable, the connection deleted, no price for the model) leaves the cost "not reported".
 */
import type { TokenPrices } from '../../shared/cost';
import type { Db } from '../store/db';
import { getRun, updateRun } from '../store/runs';
import { recordedEvents } from '../services/recording/recover';
import { REALTIME_MODELS } from '../../shared/wire/realtime';
import type { PriceLookup } from './realtime-prices';
import { recordedSessionModels, recoveredRealtimeOutput } from './realtime-recovered';

export interface PriceRecoveredDeps {
  db: Db;
  /** A model's catalogue prices on a connection (null: unknown); may reject. The lookup live calls share (realtime-prices.ts modelPrices). */
  prices: PriceLookup;
  log?(line: string): void;
}

/** Prices the recovered realtime calls among `runIds`; resolves to how many got a cost. */
export async function priceRecoveredCalls(deps: PriceRecoveredDeps, runIds: readonly string[]): Promise<number> {
  let priced = 0;
  for (const runId of runIds) {
    if (!deps.db.open) break;
    const run = getRun(deps.db, runId);
    if (!run || run.costTicks !== null || !isRecoveredCall(run.output)) continue;
    const models = [run.model || REALTIME_MODELS[0], ...recordedSessionModels(recordedEvents(deps.db, runId))];
    const table = new Map<string, TokenPrices | null>();
    try {
      for (const model of models) if (!table.has(model)) table.set(model, await deps.prices(run.connectionId, model));
    } catch (error) {
      deps.log?.(`recording: no prices for the interrupted call ${runId} (${error instanceof Error ? error.message : String(error)}); its cost stays unknown`);
      continue;
    }
    if (!deps.db.open) break;
    const rebuilt = recoveredRealtimeOutput(runId, recordedEvents(deps.db, runId), { model: run.model, pricesOf: (model) => table.get(model) ?? null });
    if (!rebuilt || rebuilt.costTicks === null || rebuilt.costTicks === undefined) continue;
    // The text and preview too: a run's preview is derived again whenever its output changes.
    updateRun(deps.db, runId, { output: rebuilt.output, outputText: rebuilt.outputText, outputPreview: rebuilt.outputPreview, costTicks: rebuilt.costTicks });
    priced++;
  }
  return priced;
}

function isRecoveredCall(output: unknown): boolean {
  return Boolean(output && typeof output === 'object' && (output as { object?: unknown }).object === 'realtime_call' && (output as { recovered?: unknown }).recovered === true);
}
