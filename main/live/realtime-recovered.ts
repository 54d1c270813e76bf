/**
 * A realtime call the app did not end (a crash, a kill -9) has no output: main keeps the
 * transcript in memory and writes it with the run only when the call stops. At the next start the
 * recording service (main/services/recording/recover.ts) hands the call's recorded events here,
 * and the conversation is rebuilt from them with the same fold the live call used
 * (RealtimeConversation + applyRealtimeCallEvent): History then shows the transcript up to the
 * kill, the answer that was still speaking as it was left (interim). Pure apart from the input.
 */
import type { CapturedEvent } from '../../shared/contract/runs';
import {
  RealtimeCallInputSchema,
  applyRealtimeCallEvent,
  initialRealtimeCallSnapshot,
  realtimeTranscriptText,
  type RealtimeCallSnapshot,
} from '../../shared/realtime-call';
import type { RecoveredOutput } from '../services/recording/recover';
import { RealtimeConversation } from './realtime-conversation';

export function recoveredRealtimeOutput(runId: string, events: Iterable<CapturedEvent>): RecoveredOutput | null {
  const state: RealtimeCallSnapshot = initialRealtimeCallSnapshot(RealtimeCallInputSchema.parse({}), runId);
  let t = 0;
  const conversation = new RealtimeConversation({
    emit: (event) => applyRealtimeCallEvent(state, event),
    record: () => undefined,
    onToolCalls: () => undefined,
    now: () => t,
    autoAnswers: () => false,
  });
  let seen = 0;
  for (const event of events) {
    if (event.direction !== 'in' || event.kind !== 'json') continue;
    let message: unknown;
    try {
      message = JSON.parse(event.data);
    } catch {
      continue; // a torn or foreign event: the rest of the log still reads
    }
    if (!message || typeof message !== 'object' || typeof (message as { type?: unknown }).type !== 'string') continue;
    t = event.t;
    conversation.server(message as { type: string });
    seen++;
  }
  if (seen === 0) return null;
  const text = realtimeTranscriptText(state.transcript);
  return {
    outputText: text,
    outputPreview: text.slice(0, 200),
    // The shape a clean stop writes (main/live/realtime.ts), said to be rebuilt from the log.
    output: { object: 'realtime_call', transcript: state.transcript, turns: state.turns, latency: state.latency, usage: state.usage, costTicks: null, recovered: true },
  };
}
