/**
 * The playgrounds' one model of a function tool (ToolSpec) and of tool choice (ToolChoiceSpec),
 * and their translations to the three wire formats: chat (nested under `function`), Responses
 * (flat) and Messages (`input_schema`, tool_choice auto/any/tool). The same tool set can then be
 * edited once and sent through any interface.
 */
import type { ChatFunctionTool, ChatToolChoice } from '../wire/chat';
import type { MessagesTool, MessagesToolChoice } from '../wire/messages';
import type { ResponseFunctionTool, ResponseToolChoice } from '../wire/responses';

/** A function tool as the user edits it. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments; an object schema (`type: "object"`). */
  parameters: Record<string, unknown>;
  /** A canned answer used to prefill replies and by "Loop with saved replies". Never sent. */
  savedReply?: string;
  strict?: boolean;
}

/** Which tool the model may or must call. */
export type ToolChoiceSpec = 'auto' | 'none' | 'required' | { name: string };

const described = (s: ToolSpec): { description?: string } => (s.description.trim() ? { description: s.description } : {});

/** Chat `tools`: `{type:"function", function:{name, description?, parameters, strict?}}`. */
export function toChatTools(specs: readonly ToolSpec[]): ChatFunctionTool[] {
  return specs.map((s) => ({
    type: 'function',
    function: { name: s.name, ...described(s), parameters: s.parameters, ...(s.strict !== undefined ? { strict: s.strict } : {}) },
  }));
}

/** Responses `tools`: flat `{type:"function", name, description?, parameters, strict?}`. */
export function toResponsesTools(specs: readonly ToolSpec[]): ResponseFunctionTool[] {
  return specs.map((s) => ({
    type: 'function',
    name: s.name,
    ...described(s),
    parameters: s.parameters,
    ...(s.strict !== undefined ? { strict: s.strict } : {}),
  }));
}

/** Messages `tools`: `{name, description?, input_schema}` (no strict flag in that format). */
export function toMessagesTools(specs: readonly ToolSpec[]): MessagesTool[] {
  return specs.map((s) => ({
    name: s.name,
    ...described(s),
    input_schema: { ...s.parameters, type: 'object' } as MessagesTool['input_schema'],
  }));
}

/** Chat `tool_choice`: the strings as they are, a name as `{type:"function", function:{name}}`. */
export function toChatToolChoice(choice: ToolChoiceSpec): ChatToolChoice {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

/** Responses `tool_choice`: the strings as they are, a name as flat `{type:"function", name}`. */
export function toResponsesToolChoice(choice: ToolChoiceSpec): ResponseToolChoice {
  return typeof choice === 'string' ? choice : { type: 'function', name: choice.name };
}

/**
 * Messages `tool_choice`. The format has only auto/any/tool, so `none` has no value: it returns
 * null and the caller sends no tools at all (MESSAGES_NONE_NOTE says so to the user).
 */
export function toMessagesToolChoice(choice: ToolChoiceSpec, parallel?: boolean): MessagesToolChoice | null {
  const extra = parallel === false ? { disable_parallel_tool_use: true } : {};
  if (choice === 'none') return null;
  if (choice === 'auto') return { type: 'auto', ...extra };
  if (choice === 'required') return { type: 'any', ...extra };
  return { type: 'tool', name: choice.name, ...extra };
}

/** What the UI tells the user about `none` on the Messages interface. */
export const MESSAGES_NONE_NOTE = 'Messages has no "none" tool choice: the tools are left out of the request instead.';

/** The spec back from a chat `tool_choice` (Re-run from History). */
export function toolChoiceFromChat(choice: ChatToolChoice | undefined | null): ToolChoiceSpec {
  if (!choice) return 'auto';
  return typeof choice === 'string' ? choice : { name: choice.function.name };
}

/** Specs back from chat `tools` (Re-run from History); non-function tools are dropped. */
export function toolSpecsFromChat(tools: readonly ChatFunctionTool[] | null | undefined): ToolSpec[] {
  return (tools ?? [])
    .filter((t) => t?.type === 'function' && t.function)
    .map((t) => ({
      name: t.function.name,
      description: t.function.description ?? '',
      parameters: (t.function.parameters ?? { type: 'object', properties: {} }) as Record<string, unknown>,
      ...(t.function.strict !== undefined ? { strict: t.function.strict } : {}),
    }));
}

/** A fresh tool for the editor's "Add tool". */
export function newToolSpec(name = 'new_tool'): ToolSpec {
  return { name, description: '', parameters: { type: 'object', properties: {}, required: [] } };
}

/**
 * `specs` with the saved replies of same-named tools in `from` where they have none: a recorded
 * request carries its tools but never the replies (they are not sent), so a re-run or a restored
 * set keeps the replies the user had saved.
 */
export function withSavedReplies(specs: readonly ToolSpec[], from: readonly ToolSpec[]): ToolSpec[] {
  const replies = new Map(from.filter((t) => t.savedReply).map((t) => [t.name, t.savedReply!]));
  return specs.map((t) => (t.savedReply || !replies.has(t.name) ? t : { ...t, savedReply: replies.get(t.name) }));
}
