/**
 * The Messages playground's form as plain data (system prompt, turns of content blocks,
 * parameters, tools) and its translation into a `POST /v1/messages` body. Blocks the user edits
 * (text, image, tool_result) have their own fields; blocks the model wrote (tool_use, thinking)
 * are kept verbatim so a tool loop sends them back exactly as they came.
 */
import type { LimitViolation } from '@shared/limits';
import type {
  MessagesContentBlock,
  MessagesInputMessage,
  MessagesRequest,
  MessagesRequestBlock,
} from '@shared/wire/messages';
import { toMessagesToolChoice, toMessagesTools, type ToolChoiceSpec, type ToolSpec } from '@shared/tools/tool-spec';
import { validateToolSpecs } from '@shared/tools/validate-specs';
import { isObject } from '@shared/is-object';

export type TurnRole = 'user' | 'assistant';

/** One content block of a turn; `id` is a stable list key, never sent. */
export type FormBlock =
  | { id: number; kind: 'text'; text: string }
  | { id: number; kind: 'image'; source: 'url' | 'base64'; url: string; mediaType: string; data: string; fileName: string }
  | { id: number; kind: 'tool_result'; toolUseId: string; content: string; isError: boolean }
  /** tool_use, thinking, redacted_thinking: as the model sent them (read-only in the editor). */
  | { id: number; kind: 'model'; block: MessagesRequestBlock };

export interface FormTurn {
  id: number;
  role: TurnRole;
  blocks: FormBlock[];
}

export interface MessagesParams {
  maxTokens: number | null;
  temperature: number | null;
  topP: number | null;
  stopSequences: string[];
  stream: boolean;
  tools: ToolSpec[];
  toolChoice: ToolChoiceSpec;
  parallelToolCalls: boolean;
}

export interface MessagesForm {
  model: string;
  /** `text`: one string; `blocks`: an array of text blocks. */
  systemMode: 'text' | 'blocks';
  systemText: string;
  systemBlocks: string[];
  turns: FormTurn[];
  params: MessagesParams;
}

/** max_tokens is required by the interface; this is what a fresh form asks for. */
export const DEFAULT_MAX_TOKENS = 1024;

export function defaultMessagesParams(): MessagesParams {
  return {
    maxTokens: DEFAULT_MAX_TOKENS,
    temperature: null,
    topP: null,
    stopSequences: [],
    stream: true,
    tools: [],
    toolChoice: 'auto',
    parallelToolCalls: true,
  };
}

function toWireBlock(b: FormBlock): MessagesRequestBlock {
  switch (b.kind) {
    case 'text':
      return { type: 'text', text: b.text };
    case 'image':
      return b.source === 'url'
        ? { type: 'image', source: { type: 'url', url: b.url.trim() } }
        : { type: 'image', source: { type: 'base64', media_type: b.mediaType, data: b.data } };
    case 'tool_result':
      return { type: 'tool_result', tool_use_id: b.toolUseId, content: b.content, ...(b.isError ? { is_error: true } : {}) };
    case 'model':
      return b.block;
  }
}

/** A turn of one text block goes as a plain string (the common, readable form); others as blocks. */
function toWireTurn(t: FormTurn): MessagesInputMessage {
  const only = t.blocks.length === 1 ? t.blocks[0] : undefined;
  if (only?.kind === 'text') return { role: t.role, content: only.text };
  return { role: t.role, content: t.blocks.map(toWireBlock) };
}

export interface BuiltMessagesRequest {
  request: MessagesRequest;
  /** Problems found while translating (tool definitions the editor cannot send). */
  violations: LimitViolation[];
}

/** The body Send posts: unset parameters are left out so the service defaults apply. */
export function buildMessagesRequest(form: MessagesForm): BuiltMessagesRequest {
  const p = form.params;
  const violations: LimitViolation[] = [];
  const request = {
    model: form.model,
    max_tokens: p.maxTokens,
    messages: form.turns.map(toWireTurn),
  } as MessagesRequest;
  if (form.systemMode === 'text') {
    if (form.systemText.trim()) request.system = form.systemText;
  } else {
    const blocks = form.systemBlocks.filter((s) => s.trim());
    if (blocks.length) request.system = blocks.map((text) => ({ type: 'text', text }));
  }
  if (p.temperature !== null) request.temperature = p.temperature;
  if (p.topP !== null) request.top_p = p.topP;
  const stops = p.stopSequences.filter((s) => s.length > 0);
  if (stops.length) request.stop_sequences = stops;
  // Messages has no "none": the tools are left out instead (ToolsPanel says so).
  if (p.tools.length && p.toolChoice !== 'none') {
    for (const problem of validateToolSpecs(p.tools)) {
      if (problem.field !== 'parameters') violations.push({ field: 'tools', message: problem.message });
    }
    request.tools = toMessagesTools(p.tools);
    const choice = toMessagesToolChoice(p.toolChoice, p.parallelToolCalls);
    if (choice && (choice.type !== 'auto' || choice.disable_parallel_tool_use)) request.tool_choice = choice;
  }
  request.stream = p.stream;
  return { request, violations };
}

/** Whether every turn is empty text (nothing worth sending yet). */
export function conversationIsEmpty(turns: readonly FormTurn[]): boolean {
  return turns.every((t) => t.blocks.every((b) => b.kind === 'text' && !b.text.trim()));
}

/**
 * The answer's blocks as an assistant turn: text stays editable, everything else (tool_use,
 * thinking) is kept verbatim. Empty text blocks are dropped.
 */
export function assistantBlocks(content: readonly MessagesContentBlock[], nextId: () => number): FormBlock[] {
  return content.flatMap((block): FormBlock[] => {
    if (block.type === 'text') return block.text ? [{ id: nextId(), kind: 'text', text: block.text }] : [];
    return [{ id: nextId(), kind: 'model', block }];
  });
}

/** The content blocks of a recorded Message (`output.content`), or none. */
export function contentOf(output: unknown): MessagesContentBlock[] {
  const content = (output as { content?: unknown } | null)?.content;
  return Array.isArray(content) ? (content as MessagesContentBlock[]) : [];
}

/** A short label for a read-only model block in the editor. */
export function describeModelBlock(block: MessagesRequestBlock): string {
  switch (block.type) {
    case 'tool_use':
      return `tool_use ${block.name} (${block.id})`;
    case 'thinking':
      return `thinking (${block.thinking.length.toLocaleString('en-US')} characters)`;
    case 'redacted_thinking':
      return 'redacted_thinking';
    default:
      return block.type;
  }
}

const numOrNull = (v: unknown): number | null => (typeof v === 'number' ? v : null);

function formBlockOf(b: unknown, nextId: () => number): FormBlock {
  const block = isObject(b) ? b : { type: 'text', text: String(b) };
  const src = isObject(block.source) ? block.source : {};
  if (block.type === 'text') return { id: nextId(), kind: 'text', text: typeof block.text === 'string' ? block.text : '' };
  if (block.type === 'image') {
    const url = src.type === 'url' && typeof src.url === 'string' ? src.url : '';
    const data = typeof src.data === 'string' ? src.data : '';
    const mediaType = typeof src.media_type === 'string' ? src.media_type : 'image/png';
    return { id: nextId(), kind: 'image', source: src.type === 'url' ? 'url' : 'base64', url, mediaType, data, fileName: '' };
  }
  if (block.type === 'tool_result') {
    const c = block.content;
    const content = typeof c === 'string' ? c : Array.isArray(c) ? c.map((p) => (isObject(p) && typeof p.text === 'string' ? p.text : '')).join('') : '';
    return { id: nextId(), kind: 'tool_result', toolUseId: typeof block.tool_use_id === 'string' ? block.tool_use_id : '', content, isError: block.is_error === true };
  }
  return { id: nextId(), kind: 'model', block: block as unknown as MessagesRequestBlock };
}

/** A recorded `/v1/messages` body back into the form (Re-run in playground). Unknown fields are dropped. */
export function formFromMessagesRequest(body: unknown, nextId: () => number): MessagesForm {
  const req = isObject(body) ? body : {};
  const params = defaultMessagesParams();
  const system = req.system;
  const systemBlocks = Array.isArray(system) ? system.map((b) => (isObject(b) && typeof b.text === 'string' ? b.text : '')) : [''];
  const turns: FormTurn[] = (Array.isArray(req.messages) ? req.messages : []).filter(isObject).map((m) => ({
    id: nextId(),
    role: m.role === 'assistant' ? 'assistant' : 'user',
    blocks: typeof m.content === 'string' ? [{ id: nextId(), kind: 'text', text: m.content }] : (Array.isArray(m.content) ? m.content : []).map((b) => formBlockOf(b, nextId)),
  }));
  params.maxTokens = numOrNull(req.max_tokens);
  params.temperature = numOrNull(req.temperature);
  params.topP = numOrNull(req.top_p);
  params.stopSequences = Array.isArray(req.stop_sequences) ? req.stop_sequences.filter((s): s is string => typeof s === 'string') : [];
  params.stream = req.stream === true;
  params.tools = (Array.isArray(req.tools) ? req.tools : []).filter(isObject).map((t) => ({
    name: typeof t.name === 'string' ? t.name : '',
    description: typeof t.description === 'string' ? t.description : '',
    parameters: isObject(t.input_schema) ? t.input_schema : { type: 'object', properties: {} },
  }));
  const choice = isObject(req.tool_choice) ? req.tool_choice : {};
  params.toolChoice = choice.type === 'any' ? 'required' : choice.type === 'tool' && typeof choice.name === 'string' ? { name: choice.name } : 'auto';
  params.parallelToolCalls = choice.disable_parallel_tool_use !== true;
  return {
    model: typeof req.model === 'string' ? req.model : '',
    systemMode: Array.isArray(system) ? 'blocks' : 'text',
    systemText: typeof system === 'string' ? system : '',
    systemBlocks: systemBlocks.length ? systemBlocks : [''],
    turns,
    params,
  };
}
