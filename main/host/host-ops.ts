/**
 * The operations the host answers itself: `ops.cancel` (and its older twin `streams.cancel`),
 * and a session's inbound side, `ops.send` and `ops.close`. Each looks only among the calling
 * window/tab's own operations, so another window's id is indistinguishable from an unknown one.
 */
import { opsContract, streamsContract } from '../../shared/contract/app';
import type { WorkbenchError } from '../../shared/contract/errors';
import type { CallReply } from '../../shared/contract/protocol';
import type { PushOutcome } from './inbound-queue';
import type { RunningOps } from './running-ops';
import { parseInput } from './validate';

const NULL_REPLY: CallReply = { ok: true, value: null };

function notFound(id: string): CallReply {
  return { ok: false, error: { code: 'not_found', message: `There is no running session ${id} in this window.` } };
}

const REFUSED: Record<Exclude<PushOutcome, 'accepted'>, (channel: string) => WorkbenchError> = {
  closed: (channel) => ({ code: 'invalid_input', message: `${channel} was closed for sending; no more messages are taken.` }),
  ended: (channel) => ({ code: 'cancelled', message: `${channel} ended before it read this message.` }),
  overflow: (channel) => ({
    code: 'invalid_input',
    message: `Too many messages are waiting for ${channel}; wait for send() before sending more.`,
  }),
};

function cancel(running: RunningOps, sessionId: string, id: string): CallReply {
  const op = running.get(sessionId, id);
  if (!op || op.controller.signal.aborted) return { ok: true, value: { cancelled: false } };
  op.controller.abort();
  return { ok: true, value: { cancelled: true } };
}

async function send(running: RunningOps, sessionId: string, input: unknown): Promise<CallReply> {
  const parsed = parseInput('ops.send', opsContract.send.input, input);
  if (!parsed.ok) return parsed;
  const op = running.get(sessionId, parsed.value.id);
  if (!op?.inbound || !op.messageSchema) return notFound(parsed.value.id);
  const message = parseInput(`${op.channel} (message)`, op.messageSchema, parsed.value.message);
  if (!message.ok) return message;
  const refined = op.handlerSchema ? parseInput(`${op.channel} (message)`, op.handlerSchema, message.value) : message;
  if (!refined.ok) return refined;
  const outcome = await op.inbound.push(refined.value);
  return outcome === 'accepted' ? NULL_REPLY : { ok: false, error: REFUSED[outcome](op.channel) };
}

function close(running: RunningOps, sessionId: string, input: unknown): CallReply {
  const parsed = parseInput('ops.close', opsContract.close.input, input);
  if (!parsed.ok) return parsed;
  const op = running.get(sessionId, parsed.value.id);
  if (!op?.inbound) return notFound(parsed.value.id);
  op.inbound.end();
  return NULL_REPLY;
}

/** Answers one of HOST_CHANNELS for `sessionId`. */
export async function answerHostCall(running: RunningOps, sessionId: string, channel: string, input: unknown): Promise<CallReply> {
  switch (channel) {
    case 'streams.cancel': {
      const parsed = parseInput(channel, streamsContract.cancel.input, input);
      return parsed.ok ? cancel(running, sessionId, parsed.value.streamId) : parsed;
    }
    case 'ops.cancel': {
      const parsed = parseInput(channel, opsContract.cancel.input, input);
      return parsed.ok ? cancel(running, sessionId, parsed.value.id) : parsed;
    }
    case 'ops.send':
      return send(running, sessionId, input);
    case 'ops.close':
      return close(running, sessionId, input);
    default:
      return { ok: false, error: { code: 'unknown_method', message: `There is no operation named "${channel}".` } };
  }
}
