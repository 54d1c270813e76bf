/**
 * Plain-text views of requests and answers of every text interface (chat, Responses, Messages,
 * legacy completions): what History's full-text index and previews are built from.
 */
import type { Endpoint, RunOutput } from '../../shared/contract/runs';
import { endpointInfo } from '../../shared/families';
import { choicesOf } from '../../shared/text-output';
import { isObject } from '../../shared/is-object';

/** The text of any interface's content: a string, or parts / blocks carrying text. */
function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => {
      if (!isObject(part)) return '';
      if (typeof part.text === 'string') return part.text;
      if (part.type === 'tool_result') return partsText(part.content);
      if (part.type === 'tool_use') return `${String(part.name)}(${JSON.stringify(part.input ?? {})})`;
      return '';
    })
    .filter(Boolean)
    .join(' ');
}

/** One Responses input item's text (messages, tool outputs, calls passed back; compactions are opaque). */
function inputItemText(item: unknown): string {
  if (!isObject(item)) return '';
  if (item.type === 'function_call_output') return typeof item.output === 'string' ? item.output : '';
  if (item.type === 'function_call') return `${String(item.name)}(${String(item.arguments ?? '')})`;
  if (item.type === 'reasoning') return Array.isArray(item.summary) ? partsText(item.summary) : '';
  return partsText(item.content);
}

/** The messages of a request of any text interface, as role + text, in order (system first). */
export function requestMessages(endpoint: Endpoint, body: unknown): Array<{ role: string; text: string }> {
  const b = isObject(body) ? body : {};
  const out: Array<{ role: string; text: string }> = [];
  const shape = endpointInfo(endpoint)?.input;
  if (shape === 'responses') {
    if (typeof b.instructions === 'string' && b.instructions) out.push({ role: 'system', text: b.instructions });
    if (typeof b.input === 'string') out.push({ role: 'user', text: b.input });
    else if (Array.isArray(b.input)) {
      for (const item of b.input) {
        const role = isObject(item) ? (typeof item.role === 'string' ? item.role : String(item.type ?? 'item')) : 'item';
        out.push({ role, text: inputItemText(item) });
      }
    }
  } else if (shape === 'messages' || shape === 'chat') {
    const system = shape === 'messages' ? partsText(b.system) : '';
    if (system) out.push({ role: 'system', text: system });
    for (const m of Array.isArray(b.messages) ? b.messages : []) {
      if (isObject(m)) out.push({ role: String(m.role ?? ''), text: partsText(m.content) });
    }
  } else if (shape === 'prompt') {
    for (const p of Array.isArray(b.prompt) ? b.prompt : [b.prompt]) if (typeof p === 'string') out.push({ role: 'prompt', text: p });
  }
  return out;
}

/** The prompt side of the full-text index for any text interface's request body. */
export function requestText(endpoint: Endpoint, body: unknown): string {
  return requestMessages(endpoint, body)
    .map((m) => m.text)
    .filter(Boolean)
    .join('\n\n');
}

/** What History lists as the prompt: the last user message (or prompt) with text. */
export function requestPreview(endpoint: Endpoint, body: unknown): string {
  const messages = requestMessages(endpoint, body).filter((m) => m.text.trim());
  const last = [...messages].reverse().find((m) => m.role === 'user' || m.role === 'prompt');
  return (last ?? messages.at(-1))?.text ?? '';
}

/** The output side of the full-text index for any interface's answer: reasoning, text, calls. */
export function outputTextOf(endpoint: Endpoint, output: RunOutput | null | undefined): string {
  const parts: string[] = [];
  for (const c of choicesOf(endpoint, output)) {
    if (c.reasoning) parts.push(c.reasoning);
    if (c.content) parts.push(c.content);
    for (const call of c.toolCalls) parts.push(`${call.function.name}(${call.function.arguments})`);
  }
  return parts.join('\n\n');
}

/** What History lists as the answer: the first choice's text, else the whole output text. */
export function outputPreviewText(endpoint: Endpoint, output: RunOutput | null | undefined): string {
  const first = choicesOf(endpoint, output)[0];
  return first?.content.trim() ? first.content : outputTextOf(endpoint, output);
}
