/**
 * A realtime call's function calls, answered in main: the auto-responder (a saved reply per tool
 * name, after its optional latency, or its injected error) answers with no window attached; a
 * call with no saved reply waits for the window's manual answer. Each answer is a
 * `function_call_output` item; once every call of a response is answered the model is asked to go
 * on (`response.create`), as the spec's function-call loop goes. An automatic answer that cannot be
 * sent (the socket closed meanwhile), or that was still waiting out its latency when the socket
 * dropped, has no window to refuse it to: it is said (`failed`), in the call's events and History,
 * not only logged.
 */
import { WorkbenchFailure } from '../../shared/contract/errors';
import type { RealtimeAutoReplies, RealtimeCallEvent, RealtimePendingToolCall } from '../../shared/realtime-call';

export interface ToolResponderDeps {
  send(event: Record<string, unknown>): Promise<void>;
  emit(event: RealtimeCallEvent): void;
  replies(): RealtimeAutoReplies;
  log(line: string): void;
  /** The auto-responder's answer to `call` could not be sent (the model never got it): say so. */
  failed(call: RealtimePendingToolCall, message: string): void;
}

export class ToolResponder {
  private readonly pending = new Map<string, RealtimePendingToolCall>();
  /** Auto-replies waiting out their latency, with the call each one answers. */
  private readonly timers = new Map<ReturnType<typeof setTimeout>, { call: RealtimePendingToolCall; latencyMs: number }>();
  /** Calls the auto-responder has taken (answered once, even if the replies change meanwhile). */
  private readonly scheduled = new Set<string>();

  constructor(private readonly deps: ToolResponderDeps) {}

  /** A response ended with these calls: the ones with a saved reply are answered by themselves. */
  take(calls: readonly RealtimePendingToolCall[]): void {
    for (const call of calls) this.pending.set(call.callId, call);
    for (const call of calls) this.maybeAuto(call);
  }

  /** The saved replies changed: calls that now have one are answered. */
  repliesChanged(): void {
    for (const call of this.pending.values()) this.maybeAuto(call);
  }

  private maybeAuto(call: RealtimePendingToolCall): void {
    const reply = this.deps.replies()[call.name];
    if (!reply || this.scheduled.has(call.callId)) return;
    this.scheduled.add(call.callId);
    const run = (): void => {
      const output = reply.error ? JSON.stringify({ error: reply.error }) : reply.output;
      this.answer(call.callId, output, 'auto', reply.error ?? null).catch((error: unknown) => {
        const reason = (error instanceof WorkbenchFailure ? error.error.message : error instanceof Error ? error.message : String(error)).replace(/[.\s]*$/, '.');
        this.deps.log(`[realtime] auto reply to ${call.name} (${call.callId}) failed: ${reason}`);
        this.deps.failed(call, `The auto-responder's answer to ${call.name} could not be sent: ${reason} The model never got the tool's output; reconnect and ask again.`);
      });
    };
    if (!reply.latencyMs) return void queueMicrotask(run);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, reply.latencyMs);
    this.timers.set(timer, { call, latencyMs: reply.latencyMs });
  }

  /** Sends the output of `callId`; when it was the response's last open call, asks for the next response. */
  async answer(callId: string, output: string, by: 'auto' | 'window', error: string | null, respond = true): Promise<void> {
    const call = this.pending.get(callId);
    if (!call) throw new WorkbenchFailure({ code: 'invalid_input', message: `No function call ${callId} is waiting for an answer (it was answered already, or the call reconnected).` });
    this.pending.delete(callId);
    // Decided before any await: two answers finishing together must ask for one response, not two.
    const last = ![...this.pending.values()].some((c) => c.responseId === call.responseId);
    await this.deps.send({ type: 'conversation.item.create', item: { type: 'function_call_output', call_id: callId, output } });
    this.deps.emit({ type: 'tool-answered', callId, output, by, error });
    if (respond && last) await this.deps.send({ type: 'response.create' });
  }

  /** Forgets every waiting call (the socket they belong to is gone): the call was stopped. */
  clear(): void {
    this.pending.clear();
    for (const timer of this.timers.keys()) clearTimeout(timer);
    this.timers.clear();
  }

  /**
   * The socket dropped: every waiting call is forgotten, and each auto-reply still waiting out its
   * latency is said (`failed`) since the model will never get it, as a send that fails is.
   */
  dropped(reason: string): void {
    const waiting = [...this.timers.values()];
    this.clear();
    const why = reason.replace(/[.\s]*$/, '.');
    for (const { call, latencyMs } of waiting) {
      this.deps.log(`[realtime] auto reply to ${call.name} (${call.callId}) cancelled by the drop during its ${latencyMs} ms latency`);
      this.deps.failed(call, `The auto-responder's answer to ${call.name} was never sent: the connection dropped during its ${latencyMs} ms latency (${why}) The model never got the tool's output; reconnect and ask again.`);
    }
  }
}
