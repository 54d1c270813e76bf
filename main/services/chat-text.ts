/**
 * Plain-text views of chat requests and completions: what History's full-text index and previews
 * are built from.
 */
import type { ChatCompletion, ChatMessage } from '../../shared/wire/chat';

function contentText(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : '')).join(' ');
}

/** Every message's text, in order (system prompt included): the prompt side of the index. */
export function promptText(messages: ChatMessage[]): string {
  return messages.map((m) => contentText(m.content)).filter(Boolean).join('\n\n');
}

/** Every choice's reasoning, content and tool calls: the output side of the index. */
export function completionText(completion: ChatCompletion | null): string {
  if (!completion) return '';
  const parts: string[] = [];
  for (const choice of completion.choices) {
    const m = choice.message;
    if (m.reasoning_content) parts.push(m.reasoning_content);
    if (m.content) parts.push(m.content);
    for (const call of m.tool_calls ?? []) parts.push(`${call.function.name}(${call.function.arguments})`);
  }
  return parts.join('\n\n');
}
