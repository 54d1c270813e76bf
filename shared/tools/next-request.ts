/**
 * The request that continues a conversation after the user answered its tool calls, one builder
 * per interface. Each keeps every other field of the previous request (model, tools, sampling)
 * so a tool loop is the same request growing by one turn.
 */
import type { ChatMessage, ChatRequest, ChatToolCall } from '../wire/chat';
import type { MessagesContentBlock, MessagesRequest, MessagesRequestBlock } from '../wire/messages';
import type { ResponseCreateRequest, ResponseInputItem, ResponseOutputItem } from '../wire/responses';
import type { ToolReply } from './replies';

/** The assistant turn as it goes back to the service: tool calls without stream `index`. */
export function chatAssistantTurn(content: string | null, toolCalls: readonly ChatToolCall[]): ChatMessage {
  return {
    role: 'assistant',
    content: content ? content : null,
    tool_calls: toolCalls.map((c) => ({ id: c.id, type: c.type || 'function', function: { name: c.function.name, arguments: c.function.arguments } })),
  };
}

/** Chat: previous messages, the assistant message with its tool_calls, one `tool` message per reply. */
export function nextChatRequest(prev: ChatRequest, assistantMessage: ChatMessage, replies: readonly ToolReply[]): ChatRequest {
  const tools: ChatMessage[] = replies.map((r) => ({ role: 'tool', content: r.output, tool_call_id: r.callId }));
  return { ...prev, messages: [...prev.messages, assistantMessage, ...tools] };
}

export interface NextResponsesOptions {
  /** The previous response was stored (`store` not false): chain by previous_response_id. */
  stored: boolean;
  /** The previous response's output items; needed when not stored, to resend them. */
  output?: readonly ResponseOutputItem[];
}

/**
 * Responses: when stored, `previous_response_id` plus only the `function_call_output` items;
 * otherwise the whole earlier input, the output items verbatim and the outputs after them.
 */
export function nextResponsesRequest(
  prevRequest: ResponseCreateRequest,
  responseId: string,
  replies: readonly ToolReply[],
  opts: NextResponsesOptions,
): ResponseCreateRequest {
  const outputs: ResponseInputItem[] = replies.map((r) => ({ type: 'function_call_output', call_id: r.callId, output: r.output }));
  if (opts.stored) {
    // The service refuses `instructions` with `previous_response_id`; the stored turn has them.
    const { instructions: _instructions, ...chained } = prevRequest;
    return { ...chained, previous_response_id: responseId, input: outputs };
  }
  const earlier: ResponseInputItem[] =
    typeof prevRequest.input === 'string' ? [{ type: 'message', role: 'user', content: prevRequest.input }] : [...prevRequest.input];
  const { previous_response_id: _dropped, ...rest } = prevRequest;
  const next: ResponseCreateRequest = { ...rest, input: [...earlier, ...(opts.output ?? []), ...outputs] };
  // A chained-but-unstored request keeps its link: the earlier turns are then on the server.
  if (prevRequest.previous_response_id) next.previous_response_id = prevRequest.previous_response_id;
  return next;
}

/** A reply as a Messages `tool_result` block; `isError` marks a failed tool run. */
export function toolResultBlock(reply: ToolReply & { isError?: boolean }): MessagesRequestBlock {
  return { type: 'tool_result', tool_use_id: reply.callId, content: reply.output, ...(reply.isError ? { is_error: true } : {}) };
}

/** Messages: the assistant turn as it came (all blocks), then one user turn of tool_result blocks. */
export function nextMessagesRequest(
  prev: MessagesRequest,
  assistantContent: readonly MessagesContentBlock[],
  replies: ReadonlyArray<ToolReply & { isError?: boolean }>,
): MessagesRequest {
  return {
    ...prev,
    messages: [
      ...prev.messages,
      { role: 'assistant', content: [...assistantContent] },
      { role: 'user', content: replies.map(toolResultBlock) },
    ],
  };
}
