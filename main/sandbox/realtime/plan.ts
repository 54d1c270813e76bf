/**
 * What the sandbox's realtime model says, decided before anything is sent, deterministic from the
 * conversation (the chat sandbox's way, chat/plan.ts): a function call when the last user message
 * names a defined tool (tool_choice `auto`), or any tool with `required`, or the named one; after a
 * function_call_output, a spoken answer that uses the output; `Say X` answers exactly X; otherwise
 * a short answer whose words are synthetic and say so. Speech-friendly: plain sentences, no markdown.
 */
import type { ChatFunctionTool, ChatMessage } from '../../../shared/wire/chat';
import { isObject } from '../../../shared/validate/violations';
import { hashSeed, Rng } from '../generate/rng';
import { echoRequest } from '../generate/text';
import { planToolCalls } from '../generate/tool-calls';
import { keywords, topicOf } from '../generate/topic';
import { itemWire, type ConversationItem } from './conversation';
import type { FunctionTool, SessionTool, ToolChoice } from './session-config';

export type ResponsePlan = { kind: 'message'; text: string } | { kind: 'function_call'; callId: string; name: string; arguments: string };

export interface PlanInput {
  items: readonly ConversationItem[];
  instructions: string;
  model: string;
  tools: readonly SessionTool[];
  toolChoice: ToolChoice;
}

const SENTENCES = [
  'The main thing about {topic} is to take it one step at a time.',
  'It usually helps to start with a small example.',
  'I would check {word} first, then go on from there.',
  'That depends a little on what you need {word} for.',
  'Most people find {topic} easier once they try it out.',
  'A quick test will tell you more than a long plan.',
  'If anything is unclear, just ask me again.',
  'There is a simple way to think about {word}.',
];

/** A user message's words for planning: its text parts, or what a clip was (no transcription here). */
function userText(item: ConversationItem): string {
  return (item.content ?? [])
    .map((p) => (p.type === 'input_text' ? (p.text ?? '') : p.type === 'input_audio' ? (p.transcript ?? '') : ''))
    .join(' ')
    .trim();
}

/** The conversation as chat messages, so the chat sandbox's tool-call rules apply unchanged. */
function asChat(items: readonly ConversationItem[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const item of items) {
    if (item.type === 'message' && item.role === 'user') out.push({ role: 'user', content: userText(item) });
    else if (item.type === 'message' && item.role === 'assistant') out.push({ role: 'assistant', content: (item.content ?? []).map((p) => p.text ?? p.transcript ?? '').join(' ') });
    else if (item.type === 'function_call') out.push({ role: 'assistant', content: null, tool_calls: [{ id: item.call_id ?? '', type: 'function', function: { name: item.name ?? '', arguments: item.arguments ?? '' } }] });
    else if (item.type === 'function_call_output') out.push({ role: 'tool', tool_call_id: item.call_id ?? '', content: item.output ?? '' });
  }
  return out;
}

/** A tool's output as words: `{"temp":21,"unit":"C"}` -> "temp 21, unit C". */
export function spokenOutput(output: string): string {
  let value: unknown = output;
  try {
    value = JSON.parse(output);
  } catch {
    // Not JSON: said as it is.
  }
  const say = (v: unknown): string => (isObject(v) ? Object.entries(v).map(([k, x]) => `${k.replace(/_/g, ' ')} ${say(x)}`).join(', ') : Array.isArray(v) ? v.map(say).join(', ') : String(v));
  const text = say(value).replace(/\s+/g, ' ').trim();
  return text.length > 200 ? `${text.slice(0, 200)}…` : text || 'nothing';
}

export function planResponse(input: PlanInput): ResponsePlan {
  const items = input.items;
  const seed = hashSeed(JSON.stringify({ items: items.map((i) => ({ ...itemWire(i), id: undefined, audio: i.audio?.seed })), instructions: input.instructions, model: input.model, tools: input.tools }));
  const rng = new Rng(seed);
  const functions = input.tools.filter((t): t is FunctionTool => t.type === 'function');
  const chat = asChat(items);
  const chatTools: ChatFunctionTool[] = functions.map((f) => ({ type: 'function', function: { name: f.name, description: f.description, parameters: f.parameters } }));
  const choice = typeof input.toolChoice === 'object' ? { type: 'function' as const, function: { name: input.toolChoice.name } } : input.toolChoice;
  const calls = planToolCalls({ messages: chat, tools: chatTools, tool_choice: choice, parallel_tool_calls: false }, rng.fork('tools'));
  if (calls.length > 0) return { kind: 'function_call', callId: calls[0].id, name: calls[0].name, arguments: calls[0].arguments };

  const last = items[items.length - 1];
  if (last?.type === 'function_call_output') {
    const call = items.find((i) => i.type === 'function_call' && i.call_id === last.call_id);
    return { kind: 'message', text: `The ${(call?.name ?? 'tool').replace(/_/g, ' ')} tool says: ${spokenOutput(last.output ?? '')}. That is a synthetic answer from the sandbox.` };
  }
  const lastUser = [...items].reverse().find((i) => i.type === 'message' && i.role === 'user');
  const said = lastUser ? userText(lastUser) : '';
  const echo = echoRequest(said);
  if (echo) return { kind: 'message', text: echo };
  const r = rng.fork('answer');
  if (said === '' && lastUser?.audio) {
    return { kind: 'message', text: `I heard ${(lastUser.audio.ms / 1000).toFixed(1)} seconds of your audio. This is a synthetic spoken answer from the sandbox. ${fill(r.pick(SENTENCES), r, 'what you said', [])}` };
  }
  if (!lastUser) return { kind: 'message', text: 'Hello! This is a synthetic spoken answer from the sandbox. How can I help?' };
  const topic = topicOf(said);
  const words = keywords(said, 5);
  const count = r.int(1, 2);
  const rest = Array.from({ length: count }, () => fill(r.pick(SENTENCES), r, topic, words));
  return { kind: 'message', text: `This is a synthetic spoken answer from the sandbox about ${topic}. ${[...new Set(rest)].join(' ')}` };
}

function fill(template: string, rng: Rng, topic: string, words: string[]): string {
  return template.replaceAll('{topic}', topic).replaceAll('{word}', words.length > 0 ? rng.pick(words) : 'this');
}
