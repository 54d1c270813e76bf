/**
 * Counting a chat prompt: text tokens (messages with a small per-message overhead, tool
 * definitions, the response schema) and image tokens, with the same tokenizer as the output.
 */
import type { ChatRequest } from '../../../shared/wire/chat';
import { countTokens } from '../generate/tokenizer';

/** Framing tokens per message (role and separators), as real chat templates add. */
export const MESSAGE_OVERHEAD = 4;
/** Tokens of the assistant turn's opening. */
export const REPLY_OVERHEAD = 3;
/** Tokens per attached image, by detail. */
export const IMAGE_TOKENS = { low: 85, high: 765, auto: 256 } as const;

export interface PromptCount {
  textTokens: number;
  imageTokens: number;
  /** Text tokens of messages[0..i] inclusive, for prefix caching. */
  prefixTokens: number[];
}

/** Text tokens of one message. */
export function messageTokens(m: ChatRequest['messages'][number]): number {
  let n = MESSAGE_OVERHEAD + (m.name ? countTokens(m.name) : 0);
  if (typeof m.content === 'string') n += countTokens(m.content);
  else if (Array.isArray(m.content)) {
    for (const part of m.content) if (part.type === 'text') n += countTokens(part.text);
  }
  if (m.reasoning_content) n += countTokens(m.reasoning_content);
  for (const call of m.tool_calls ?? []) n += countTokens(call.function.name) + countTokens(call.function.arguments);
  return n;
}

/** Number of image parts in the messages, by detail. */
export function countImages(req: ChatRequest): number {
  let tokens = 0;
  for (const m of req.messages) {
    if (!Array.isArray(m.content)) continue;
    for (const part of m.content) {
      if (part.type === 'image_url') tokens += IMAGE_TOKENS[(part.image_url.detail ?? 'auto') as keyof typeof IMAGE_TOKENS] ?? IMAGE_TOKENS.auto;
    }
  }
  return tokens;
}

/** The whole prompt's token counts. */
export function countPrompt(req: ChatRequest): PromptCount {
  const prefixTokens: number[] = [];
  let running = 0;
  for (const m of req.messages) {
    running += messageTokens(m);
    prefixTokens.push(running);
  }
  let extra = REPLY_OVERHEAD;
  if (req.tools && req.tools.length > 0) extra += countTokens(JSON.stringify(req.tools));
  if (req.response_format?.type === 'json_schema') extra += countTokens(JSON.stringify(req.response_format.json_schema.schema));
  return { textTokens: running + extra, imageTokens: countImages(req), prefixTokens };
}
