/**
 * Deciding whether a chat answer is a tool call, and building it: a call happens when
 * tool_choice is `required` or names a function, or (with `auto`) when the last user message
 * mentions a defined tool by name. Arguments are JSON valid against the tool's parameters schema.
 */
import type { ChatFunctionTool, ChatMessage, ChatToolChoice } from '../../../shared/wire/chat';
import { generateFromSchema } from './json-schema';
import type { Rng } from './rng';
import { keywords } from './topic';

export interface PlannedToolCall {
  id: string;
  name: string;
  /** A JSON string, as on the wire. */
  arguments: string;
}

export interface ToolPlanInput {
  messages: ChatMessage[];
  tools?: ChatFunctionTool[] | null;
  tool_choice?: ChatToolChoice;
  parallel_tool_calls?: boolean | null;
}

/** The text of a message's content (text parts joined). */
export function messageText(m: ChatMessage | undefined): string {
  if (!m || m.content === null || m.content === undefined) return '';
  if (typeof m.content === 'string') return m.content;
  return m.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
}

function mentions(text: string, name: string): boolean {
  const lower = text.toLowerCase();
  const n = name.toLowerCase();
  return lower.includes(n) || lower.includes(n.replace(/[_-]+/g, ' '));
}

/**
 * Capitalised words or runs of them ("Lisbon", "San Francisco") that do not begin a sentence: the
 * places and names a request is about, so a weather call for "the weather in Lisbon" asks for Lisbon.
 */
export function properNouns(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/\p{Lu}\p{Ll}+(?:[ -]\p{Lu}\p{Ll}+)*/gu)) {
    const before = text.slice(0, match.index).trimEnd();
    if (before === '' || /[.!?:\n]$/.test(before)) continue;
    if (!found.includes(match[0])) found.push(match[0]);
  }
  return found;
}

/** The calls to answer with; empty when the answer is ordinary text. */
export function planToolCalls(req: ToolPlanInput, rng: Rng): PlannedToolCall[] {
  const tools = req.tools ?? [];
  const choice = req.tool_choice ?? 'auto';
  if (tools.length === 0 || choice === 'none') return [];
  const last = req.messages[req.messages.length - 1];
  const lastUser = [...req.messages].reverse().find((m) => m.role === 'user');
  const text = messageText(lastUser);
  let chosen: ChatFunctionTool[];
  if (typeof choice === 'object') {
    chosen = tools.filter((t) => t.function.name === choice.function.name);
  } else {
    // After a tool result, `auto` answers in words rather than calling again.
    if (choice === 'auto' && last?.role === 'tool') return [];
    chosen = tools.filter((t) => mentions(text, t.function.name));
    if (chosen.length === 0 && choice === 'required') chosen = [tools[0]];
  }
  if (req.parallel_tool_calls === false) chosen = chosen.slice(0, 1);
  const words = keywords(text, 5);
  const places = properNouns(text);
  return chosen.map((tool) => {
    const r = rng.fork(tool.function.name);
    const schema = tool.function.parameters ?? { type: 'object', properties: {} };
    return {
      id: `call_${String(r.int(0, 99_999_999)).padStart(8, '0')}`,
      name: tool.function.name,
      arguments: JSON.stringify(generateFromSchema(schema, r, { words, places })),
    };
  });
}
