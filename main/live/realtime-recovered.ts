/**
 * A realtime call the app did not end (a crash, a kill -9) has no output: main keeps the
 * transcript in memory and writes it with the run only when the call stops. At the next start the
 * recording service (main/services/recording/recover.ts) hands the call's recorded events here,
 * and the conversation is rebuilt from them with the same fold the live call used
 * (RealtimeConversation + applyRealtimeCallEvent): History then shows the transcript up to the
 * kill, the answer that was still speaking as it was left (interim).
 *
 * The cost is the live call's too: each recorded `response.done`'s usage priced by
 * realtimeResponseCost (the service's `cost_in_usd_ticks` when the usage carries one, else the
 * model's catalogue prices), summed by the fold. Start-up has no catalogue (it is fetched from the
 * service), so there `pricesOf` is absent and only costs the service stated count;
 * priceRecoveredCalls (realtime-recovered-cost.ts) runs this again with the prices once the app is up.
 * Pure apart from the input.
 */
import type { TokenPrices } from '../../shared/cost';
import type { CapturedEvent } from '../../shared/contract/runs';
import {
  RealtimeCallInputSchema,
  applyRealtimeCallEvent,
  initialRealtimeCallSnapshot,
  realtimeResponseCost,
  realtimeTranscriptText,
  type RealtimeCallSnapshot,
} from '../../shared/realtime-call';
import { REALTIME_MODELS } from '../../shared/wire/realtime';
import type { RecoveredOutput } from '../services/recording/recover';
import { RealtimeConversation } from './realtime-conversation';

export interface RecoveredPricing {
  /** The model the call was started with (the run's `model`; empty: the default, as the live call). */
  model: string;
  /** A model's catalogue prices (null: unknown). */
  pricesOf(model: string): TokenPrices | null;
}

type ServerMessage = { type: string; session?: { model?: unknown } };

export function recoveredRealtimeOutput(runId: string, events: Iterable<CapturedEvent>, pricing?: RecoveredPricing): RecoveredOutput | null {
  const state: RealtimeCallSnapshot = initialRealtimeCallSnapshot(RealtimeCallInputSchema.parse({}), runId);
  let t = 0;
  // As the live call: the model it started with, then the one each session.created/updated names.
  let prices = pricing?.pricesOf(pricing.model || REALTIME_MODELS[0]) ?? null;
  const conversation = new RealtimeConversation({
    emit: (event) => applyRealtimeCallEvent(state, event),
    record: () => undefined,
    onToolCalls: () => undefined,
    now: () => t,
    autoAnswers: () => false,
    cost: (usage) => realtimeResponseCost(prices, usage),
  });
  let seen = 0;
  for (const message of serverMessages(events)) {
    t = message.t;
    const m = message.message;
    if (pricing && (m.type === 'session.created' || m.type === 'session.updated') && typeof m.session?.model === 'string' && m.session.model) {
      prices = pricing.pricesOf(m.session.model);
    }
    conversation.server(m);
    seen++;
  }
  if (seen === 0) return null;
  const text = realtimeTranscriptText(state.transcript);
  return {
    outputText: text,
    outputPreview: text.slice(0, 200),
    // The shape a clean stop writes (main/live/realtime.ts), said to be rebuilt from the log.
    output: { object: 'realtime_call', transcript: state.transcript, turns: state.turns, latency: state.latency, usage: state.usage, costTicks: state.costTicks, recovered: true },
    costTicks: state.costTicks,
  };
}

/** The models a recorded call's sessions named (session.created/updated), in order, without repeats. */
export function recordedSessionModels(events: Iterable<CapturedEvent>): string[] {
  const models: string[] = [];
  for (const { message: m } of serverMessages(events)) {
    if ((m.type === 'session.created' || m.type === 'session.updated') && typeof m.session?.model === 'string' && m.session.model && !models.includes(m.session.model)) models.push(m.session.model);
  }
  return models;
}

function* serverMessages(events: Iterable<CapturedEvent>): Generator<{ t: number; message: ServerMessage }> {
  for (const event of events) {
    if (event.direction !== 'in' || event.kind !== 'json') continue;
    let message: unknown;
    try {
      message = JSON.parse(event.data);
    } catch {
      continue; // a torn or foreign event: the rest of the log still reads
    }
    if (!message || typeof message !== 'object' || typeof (message as { type?: unknown }).type !== 'string') continue;
    yield { t: event.t, message: message as ServerMessage };
  }
}
