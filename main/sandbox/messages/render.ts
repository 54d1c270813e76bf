/**
 * A planned Messages reply on the wire: one `message` object, or the stream of wire-notes §1.4
 * (message_start with usage, a ping, then per block content_block_start / deltas /
 * content_block_stop with the block's index on every event, message_delta with the stop reason
 * and output tokens, message_stop). Thinking blocks end with a signature_delta; tool input is
 * sent as a few input_json_delta pieces.
 */
import type {
  ContentBlockDelta,
  MessagesContentBlock,
  MessagesResponse,
  MessagesStreamErrorEvent,
  MessagesStreamEvent,
  MessagesUsage,
} from '../../../shared/wire/messages';
import type { StreamErrorForm } from '../sse';
import type { MessagesPlan, PlannedBlock } from './plan';

export interface MessageMeta {
  id: string;
  model: string;
}

/** One SSE frame to send; `paced` frames are followed by the token delay. */
export interface StreamFrame {
  event: MessagesStreamEvent;
  paced: boolean;
}

function finished(block: PlannedBlock): MessagesContentBlock {
  switch (block.type) {
    case 'thinking':
      return { type: 'thinking', thinking: block.tokens.join(''), signature: block.signature };
    case 'text':
      return { type: 'text', text: block.tokens.join('') };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: JSON.parse(block.arguments) as Record<string, unknown> };
  }
}

function started(block: PlannedBlock): MessagesContentBlock {
  switch (block.type) {
    case 'thinking':
      return { type: 'thinking', thinking: '', signature: '' };
    case 'text':
      return { type: 'text', text: '' };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: {} };
  }
}

/** The argument JSON in up to three pieces, as a model emits it while writing. */
export function jsonPieces(json: string): string[] {
  const size = Math.max(1, Math.ceil(json.length / 3));
  const out: string[] = [];
  for (let i = 0; i < json.length; i += size) out.push(json.slice(i, i + size));
  return out;
}

function deltas(block: PlannedBlock): ContentBlockDelta[] {
  switch (block.type) {
    case 'thinking':
      return [...block.tokens.map((t) => ({ type: 'thinking_delta' as const, thinking: t })), { type: 'signature_delta', signature: block.signature }];
    case 'text':
      return block.tokens.map((t) => ({ type: 'text_delta' as const, text: t }));
    case 'tool_use':
      return jsonPieces(block.arguments).map((p) => ({ type: 'input_json_delta' as const, partial_json: p }));
  }
}

/** The non-streamed reply. */
export function toMessage(meta: MessageMeta, plan: MessagesPlan, usage: MessagesUsage): MessagesResponse {
  return {
    id: meta.id,
    type: 'message',
    role: 'assistant',
    model: meta.model,
    content: plan.blocks.map(finished),
    stop_reason: plan.stopReason,
    stop_sequence: plan.stopSequence,
    usage,
  };
}

/** Every event of the streamed reply, in order (the caller adds `data: [DONE]`). */
export function streamFrames(meta: MessageMeta, plan: MessagesPlan, usage: MessagesUsage): StreamFrame[] {
  const frames: StreamFrame[] = [
    {
      event: {
        type: 'message_start',
        message: {
          id: meta.id,
          type: 'message',
          role: 'assistant',
          model: meta.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...usage, output_tokens: 1 },
        },
      },
      paced: false,
    },
    { event: { type: 'ping' }, paced: false },
  ];
  plan.blocks.forEach((block, index) => {
    frames.push({ event: { type: 'content_block_start', index, content_block: started(block) }, paced: false });
    for (const delta of deltas(block)) frames.push({ event: { type: 'content_block_delta', index, delta }, paced: true });
    frames.push({ event: { type: 'content_block_stop', index }, paced: false });
  });
  frames.push(
    {
      event: { type: 'message_delta', delta: { stop_reason: plan.stopReason, stop_sequence: plan.stopSequence }, usage: { output_tokens: usage.output_tokens } },
      paced: false,
    },
    { event: { type: 'message_stop' }, paced: false },
  );
  return frames;
}

/** A service error mid-stream (wire-notes §1.4): `event: error` with an Anthropic overloaded_error. */
export const messagesStreamError: StreamErrorForm = (message) => {
  const event: MessagesStreamErrorEvent = { type: 'error', error: { type: 'overloaded_error', message } };
  return [{ event: event.type, data: event }];
};
