/**
 * What the streaming routes share: opening a request's event stream with the sandbox's pacing and
 * the request's faults, and sending a planned list of typed events (`event:` + `data:` frames,
 * then `data: [DONE]`), stopping with a log line when the client goes away.
 */
import type { SandboxEnv } from '../env';
import type { RequestContext } from '../route';
import { SseWriter, type StreamErrorForm } from '../sse';

/** Opens the event stream of a request; `errorForm` is the family's mid-stream error (OpenAI-style when absent). */
export function openEventStream(ctx: RequestContext, env: SandboxEnv, errorForm?: StreamErrorForm): SseWriter {
  return new SseWriter(ctx.res, { clock: env.clock, tokenDelayMs: env.tokenDelayMs, signal: ctx.signal, fault: ctx.fault, ...(errorForm ? { errorForm } : {}) });
}

/** Logs that a stream stopped early because the connection closed. */
export function logStopped(ctx: RequestContext, env: SandboxEnv, stream: string, sent: number, total: number, unit: string): void {
  env.log(`${ctx.requestId} ${stream} stopped after ${sent} of ${total} ${unit}: the connection closed`);
}

/** One typed event to send; a `paced` one is followed by the token delay. */
export interface EventStep {
  event: { type: string };
  paced: boolean;
}

/**
 * Sends `steps` as typed frames, then `[DONE]`. `stream` names the stream in the log line written
 * when the client goes away mid-stream.
 */
export async function sendEventSteps(ctx: RequestContext, env: SandboxEnv, writer: SseWriter, steps: readonly EventStep[], stream: string): Promise<void> {
  for (const [i, step] of steps.entries()) {
    await writer.send(step.event, step.event.type);
    if (step.paced) await writer.pace();
    if (!writer.open) {
      logStopped(ctx, env, stream, i + 1, steps.length, 'events');
      return;
    }
  }
  await writer.send('[DONE]');
  writer.end();
}
