/**
 * The tool calls a finished run is waiting on, read the same way from each interface's output:
 * chat `message.tool_calls`, Responses `function_call` items (answered by `call_id`), Messages
 * `tool_use` blocks (answered by `id`, arguments as the JSON of `input`).
 */
import type { ChatCompletionMessage, ChatToolCall } from '../wire/chat';
import type { MessagesContentBlock } from '../wire/messages';
import type { ResponseOutputItem } from '../wire/responses';

/** One call to answer: `id` is what the reply must quote (call id, call_id or tool_use id). */
export interface PendingCall {
  id: string;
  name: string;
  /** The arguments as JSON text, exactly as the model wrote them. */
  arguments: string;
}

/** Calls of a chat assistant message (or of a choice's tool call list). Server-side tools are skipped. */
export function pendingFromChat(message: Pick<ChatCompletionMessage, 'tool_calls'> | { tool_calls?: ChatToolCall[] | null } | null | undefined): PendingCall[] {
  return (message?.tool_calls ?? [])
    .filter((c) => c.type === 'function' || c.type === undefined)
    .map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
}

/** Calls among Responses output items: each `function_call`, answered by its `call_id`. */
export function pendingFromResponses(output: readonly ResponseOutputItem[] | null | undefined): PendingCall[] {
  return (output ?? []).flatMap((item) =>
    item.type === 'function_call' ? [{ id: item.call_id, name: item.name, arguments: item.arguments }] : [],
  );
}

/** Calls among Messages content blocks: each `tool_use`. */
export function pendingFromMessages(content: readonly MessagesContentBlock[] | null | undefined): PendingCall[] {
  return (content ?? []).flatMap((block) =>
    block.type === 'tool_use' ? [{ id: block.id, name: block.name, arguments: JSON.stringify(block.input ?? {}) }] : [],
  );
}
