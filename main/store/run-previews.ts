/**
 * The short texts History lists show for a run: the last thing the user asked, and the start of
 * the answer. Computed when a run is written so listing never parses request or output JSON.
 */
import type { ChatCompletion } from '../../shared/wire/chat';
import { isObject } from '../../shared/is-object';

/** Longest preview kept, in characters. */
export const PREVIEW_CHARS = 200;

/** One line of at most PREVIEW_CHARS characters: whitespace collapsed, an ellipsis when cut. */
export function previewOf(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= PREVIEW_CHARS) return line;
  return `${line.slice(0, PREVIEW_CHARS - 1).trimEnd()}…`;
}

/** The last user message of a chat request body; falls back to the indexed prompt text. */
export function promptPreviewOf(body: unknown, promptText: string): string {
  const messages = isObject(body) && Array.isArray(body.messages) ? body.messages : [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message: unknown = messages[i];
    if (!isObject(message) || message.role !== 'user') continue;
    const text = contentText(message.content);
    if (text.trim()) return previewOf(text);
  }
  return previewOf(promptText);
}

/** The start of the answer: the first choice's content, else the indexed output text. */
export function outputPreviewOf(output: ChatCompletion | null | undefined, outputText: string | undefined): string {
  const content = output?.choices?.[0]?.message?.content;
  if (typeof content === 'string' && content.trim()) return previewOf(content);
  return previewOf(outputText ?? '');
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => (isObject(part) && part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .filter(Boolean)
    .join(' ');
}
