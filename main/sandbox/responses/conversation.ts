/**
 * The conversation a response answers, as chat messages (so the chat planner, prompt counting and
 * prefix cache apply unchanged): the stored chain of `previous_response_id` (its inputs and
 * outputs, in order), then this request's input items. Instructions are a leading system message
 * for this turn only; compaction items become the summary they carry; prior function_call items
 * become assistant tool calls and function_call_output items tool messages.
 */
import type { ChatContentPart, ChatMessage } from '../../../shared/wire/chat';
import type { ResponseInputContentPart, ResponseInputItem, ResponseOutputItem } from '../../../shared/wire/responses';
import { SandboxError } from '../errors';
import { compactionMessage, type CompactionCodec } from './compaction';

export interface ConversationContext {
  team: string;
  codec: CompactionCodec;
}

function toParts(content: string | ResponseInputContentPart[]): string | ChatContentPart[] {
  if (typeof content === 'string') return content;
  return content.flatMap((p): ChatContentPart[] => {
    switch (p.type) {
      case 'input_text':
      case 'output_text':
        return [{ type: 'text', text: p.text }];
      case 'refusal':
        return [{ type: 'text', text: p.refusal }];
      case 'input_image':
        return p.image_url ? [{ type: 'image_url', image_url: { url: p.image_url, detail: p.detail } }] : [];
      default:
        return [];
    }
  });
}

/** Appends a tool call to the assistant message at the end, or starts one, so parallel calls stay together. */
function pushCall(out: ChatMessage[], call: { call_id: string; name: string; arguments: string }): void {
  const last = out[out.length - 1];
  const entry = { id: call.call_id, type: 'function', function: { name: call.name, arguments: call.arguments } };
  if (last?.role === 'assistant' && last.tool_calls && (last.content === null || last.content === undefined)) last.tool_calls.push(entry);
  else out.push({ role: 'assistant', content: null, tool_calls: [entry] });
}

/** Input items (or a string) as chat messages; `at` names the field in error messages. */
export function inputToMessages(input: string | ResponseInputItem[], ctx: ConversationContext, at = 'input'): ChatMessage[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  const out: ChatMessage[] = [];
  input.forEach((item, i) => {
    const type = 'type' in item && item.type !== undefined ? item.type : 'message';
    switch (type) {
      case 'message': {
        const m = item as Extract<ResponseInputItem, { role: string }>;
        out.push({ role: m.role, content: toParts(m.content as string | ResponseInputContentPart[]) });
        break;
      }
      case 'function_call':
        pushCall(out, item as { call_id: string; name: string; arguments: string });
        break;
      case 'function_call_output': {
        const o = item as { call_id: string; output: unknown };
        out.push({ role: 'tool', tool_call_id: o.call_id, content: typeof o.output === 'string' ? o.output : JSON.stringify(o.output) });
        break;
      }
      case 'compaction': {
        const payload = ctx.codec.decode((item as { encrypted_content: string }).encrypted_content, ctx.team);
        if (!payload) {
          throw new SandboxError(
            400,
            `${at}[${i}].encrypted_content is not a compaction this service issued to your team (it was changed, or made elsewhere). Pass the item from POST /v1/responses/compact back verbatim.`,
          );
        }
        out.push(compactionMessage(payload));
        break;
      }
      default:
        // Reasoning and web search records carry nothing the next turn needs.
        break;
    }
  });
  return out;
}

/** This response's output items as the messages they add to the conversation. */
export function outputToMessages(output: readonly ResponseOutputItem[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const item of output) {
    if (item.type === 'message') {
      const text = item.content.map((p) => (p.type === 'output_text' ? p.text : p.refusal)).join('');
      out.push({ role: 'assistant', content: text });
    } else if (item.type === 'function_call') {
      pushCall(out, item);
    }
  }
  return out;
}

/**
 * Every function_call_output must answer a call the conversation holds; otherwise the client
 * lost track of its call ids, which is worth a clear 400 rather than a confused answer.
 */
export function checkCallOutputs(messages: readonly ChatMessage[]): void {
  const calls = new Set(messages.flatMap((m) => (m.tool_calls ?? []).map((c) => c.id)));
  for (const m of messages) {
    if (m.role === 'tool' && !calls.has(m.tool_call_id ?? '')) {
      throw new SandboxError(
        400,
        `No function call with call_id ${m.tool_call_id} is in this conversation. Send the function_call_output with previous_response_id set to the response that made the call, or include that function_call item in input.`,
      );
    }
  }
}
