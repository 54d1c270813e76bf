/**
 * A Messages request seen as the chat request it is equivalent to, so the sandbox plans, counts
 * and caches both families with one generator: `system` becomes a system message, user image
 * blocks become image parts, assistant `tool_use` blocks become tool calls and `tool_result`
 * blocks become tool messages; tools and tool_choice map to their chat forms.
 */
import type { ChatContentPart, ChatFunctionTool, ChatMessage, ChatRequest, ChatToolChoice } from '../../../shared/wire/chat';
import type {
  ImageSource,
  MessagesInputMessage,
  MessagesRequest,
  MessagesToolChoice,
  ToolResultBlock,
} from '../../../shared/wire/messages';

/** The text of a system prompt given as a string or text blocks. */
export function systemText(system: MessagesRequest['system']): string {
  if (system === undefined || system === null) return '';
  return typeof system === 'string' ? system : system.map((b) => b.text).join('\n');
}

function imageUrl(source: ImageSource): string {
  return source.type === 'url' ? source.url : `data:${source.media_type};base64,${source.data}`;
}

function toolResultText(block: ToolResultBlock): string {
  const c = block.content;
  const text = c === undefined || c === null ? '' : typeof c === 'string' ? c : c.map((p) => (p.type === 'text' ? p.text : '[image]')).join('\n');
  return block.is_error ? `(the tool reported an error) ${text}` : text;
}

function userTurn(content: Exclude<MessagesInputMessage['content'], string>): ChatMessage[] {
  const out: ChatMessage[] = [];
  let parts: ChatContentPart[] = [];
  const flush = (): void => {
    // Text-only turns become plain strings, so a turn means the same whichever form it was sent in.
    const textOnly = parts.every((p) => p.type === 'text');
    if (parts.length > 0) out.push({ role: 'user', content: textOnly ? parts.map((p) => (p as { text: string }).text).join('\n') : parts });
    parts = [];
  };
  for (const block of content) {
    if (block.type === 'text') parts.push({ type: 'text', text: block.text });
    else if (block.type === 'image') parts.push({ type: 'image_url', image_url: { url: imageUrl(block.source) } });
    else if (block.type === 'tool_result') {
      flush();
      out.push({ role: 'tool', tool_call_id: block.tool_use_id, content: toolResultText(block) });
    }
  }
  flush();
  return out;
}

function assistantTurn(content: Exclude<MessagesInputMessage['content'], string>): ChatMessage {
  const text = content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  const reasoning = content.flatMap((b) => (b.type === 'thinking' ? [b.thinking] : [])).join('\n');
  const calls = content.flatMap((b) =>
    b.type === 'tool_use' ? [{ id: b.id, type: 'function', function: { name: b.name, arguments: JSON.stringify(b.input) } }] : [],
  );
  return {
    role: 'assistant',
    content: text === '' && calls.length > 0 ? null : text,
    ...(reasoning ? { reasoning_content: reasoning } : {}),
    ...(calls.length > 0 ? { tool_calls: calls } : {}),
  };
}

function toolChoice(choice: MessagesToolChoice | undefined): ChatToolChoice | undefined {
  if (!choice) return undefined;
  if (choice.type === 'any') return 'required';
  if (choice.type === 'tool') return { type: 'function', function: { name: choice.name } };
  return 'auto';
}

/** The chat turns of a Messages request (system first). */
export function toChatMessages(req: MessagesRequest): ChatMessage[] {
  const out: ChatMessage[] = [];
  const system = systemText(req.system);
  if (system) out.push({ role: 'system', content: system });
  for (const m of req.messages) {
    if (typeof m.content === 'string') out.push({ role: m.role, content: m.content });
    else if (m.role === 'user') out.push(...userTurn(m.content));
    else out.push(assistantTurn(m.content));
  }
  return out;
}

/**
 * The equivalent chat request, without stop or token limits: the Messages planner cuts the
 * answer itself because it must report which stop sequence ended it.
 */
export function toChatRequest(req: MessagesRequest, modelId: string): ChatRequest {
  const tools: ChatFunctionTool[] | undefined = req.tools?.map((t) => ({
    type: 'function',
    function: { name: t.name, ...(t.description !== undefined ? { description: t.description } : {}), parameters: t.input_schema },
  }));
  return {
    model: modelId,
    messages: toChatMessages(req),
    ...(tools && tools.length > 0 ? { tools } : {}),
    ...(req.tool_choice ? { tool_choice: toolChoice(req.tool_choice) } : {}),
    ...(req.tool_choice?.disable_parallel_tool_use ? { parallel_tool_calls: false } : {}),
    ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
    ...(req.top_p !== undefined ? { top_p: req.top_p } : {}),
  };
}
