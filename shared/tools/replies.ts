/**
 * The user's answers to pending calls, and what stops them from being sent: a missing reply, or
 * a reply that is not JSON (tool results are conventionally JSON, and a typo there is far more
 * often a mistake than intended; `allowText` lifts that rule for deliberate plain-text results).
 */
import { describeJsonError, parseJsonText } from '../json-schema/parse-json';
import type { PendingCall } from './pending-calls';

/** The answer to one call. */
export interface ToolReply {
  callId: string;
  output: string;
}

export interface ReplyProblem {
  callId: string;
  message: string;
}

/** Problems of the replies to `calls` (in call order); empty when they can be sent. */
export function validateReplies(calls: readonly PendingCall[], replies: readonly ToolReply[], opts: { allowText?: boolean } = {}): ReplyProblem[] {
  const out: ReplyProblem[] = [];
  for (const call of calls) {
    const reply = replies.find((r) => r.callId === call.id);
    if (!reply || !reply.output.trim()) {
      out.push({ callId: call.id, message: `Write a reply to ${call.name} (${call.id}).` });
      continue;
    }
    if (opts.allowText) continue;
    const parsed = parseJsonText(reply.output);
    if (!parsed.ok) out.push({ callId: call.id, message: `The reply to ${call.name} is not valid JSON: ${describeJsonError(parsed.error)}` });
  }
  return out;
}

/** Replies in the calls' order; a call with no reply gets an empty output. */
export function orderReplies(calls: readonly PendingCall[], replies: readonly ToolReply[]): ToolReply[] {
  return calls.map((c) => ({ callId: c.id, output: replies.find((r) => r.callId === c.id)?.output ?? '' }));
}
