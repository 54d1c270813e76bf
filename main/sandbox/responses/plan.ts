/**
 * What a response says, decided before anything is sent so plain and streamed answers match. The
 * chat planner does the generation (echo prompts, tool calls valid against their schemas, JSON
 * for text.format, answers that quote a tool's output); on top of it this adds what a chain
 * makes visible: recall prompts list the earlier turns (and compacted context), other synthetic
 * answers say which turn they are, search cites synthetic sources, and max_output_tokens cuts
 * reasoning plus output together (status incomplete).
 */
import { LIMITS } from '../../../shared/limits';
import type { ChatMessage, ChatRequest, ChatResponseFormat, ChatToolChoice } from '../../../shared/wire/chat';
import type { ReasoningEffort, ResponseCreateRequest } from '../../../shared/wire/responses';
import type { UrlCitation } from '../../../shared/wire/search';
import type { LanguageEntry } from '../catalogue';
import { planChoices, requestSeed, type ChoicePlan } from '../chat/plan';
import { hashSeed, Rng } from '../generate/rng';
import { citeSources, decideSearch, syntheticSources, type SearchDecision, type SyntheticSource } from '../generate/search';
import { echoRequest } from '../generate/text';
import { tokenize } from '../generate/tokenizer';
import { messageText } from '../generate/tool-calls';
import { COMPACTION_NAME } from './compaction';

export interface ResponsePlan {
  /** Chat-shaped plan (reasoning, content or tool calls) after the responses adjustments. */
  choice: ChoicePlan;
  annotations: UrlCitation[];
  search: SearchDecision | null;
  sources: SyntheticSource[];
  /** max_output_tokens ran out. */
  incomplete: boolean;
}

const RECALL = /\b(what did (i|we|you) (say|ask|write|talk about|discuss)|recall|remind me|so far|earlier|previous(ly)?)\b/i;

/** The effort a reasoning model uses: `reasoning.effort`, else `reasoning_effort`, else low. */
export function effectiveEffort(req: ResponseCreateRequest, model: LanguageEntry): ReasoningEffort | null {
  if (!model.reasoning) return null;
  return req.reasoning?.effort ?? (req.reasoning ? null : req.reasoning_effort) ?? 'low';
}

/** The chat request the planner sees for this response. */
export function asChatRequest(req: ResponseCreateRequest, model: LanguageEntry, messages: ChatMessage[]): ChatRequest {
  const format = req.text?.format;
  const responseFormat: ChatResponseFormat | undefined =
    format?.type === 'json_schema' ? { type: 'json_schema', json_schema: { name: format.name ?? 'response', schema: format.schema } } : format;
  const choice = req.tool_choice;
  const toolChoice: ChatToolChoice | undefined = typeof choice === 'object' && choice !== null ? { type: 'function', function: { name: choice.name } } : (choice ?? undefined);
  const tools = (req.tools ?? []).flatMap((t) =>
    t.type === 'function' ? [{ type: 'function' as const, function: { name: t.name, description: t.description ?? undefined, parameters: t.parameters ?? undefined } }] : [],
  );
  return {
    model: model.id,
    messages,
    tools,
    tool_choice: toolChoice,
    parallel_tool_calls: req.parallel_tool_calls,
    response_format: responseFormat,
    temperature: req.temperature,
    top_p: req.top_p,
    reasoning_effort: effectiveEffort(req, model),
  };
}

function clip(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** What a recall prompt answers: the earlier messages, as the model sees them. */
function recall(earlier: readonly ChatMessage[]): string {
  const lines = earlier.flatMap((m) => {
    if (m.role === 'system' && m.name === COMPACTION_NAME) return [`- From the compacted context: ${clip(messageText(m), 400)}`];
    if (m.role === 'user') return [`- You said: "${clip(messageText(m))}"`];
    if (m.role === 'assistant' && m.tool_calls?.length) return m.tool_calls.map((c) => `- I called \`${c.function.name}\` with ${clip(c.function.arguments)}`);
    if (m.role === 'assistant') return [`- I replied: "${clip(messageText(m))}"`];
    if (m.role === 'tool') return [`- A tool returned: ${clip(messageText(m))}`];
    return [];
  });
  if (lines.length === 0) return 'This is the first turn of our conversation, so there is nothing earlier to recall (synthetic sandbox answer).';
  return `Here is what I can see from the ${lines.length} earlier message${lines.length === 1 ? '' : 's'} of this conversation (synthetic sandbox recall):\n\n${lines.join('\n')}`;
}

/** The text answer with chain awareness, or the planner's text unchanged. */
function adjustText(content: string, messages: readonly ChatMessage[], req: ResponseCreateRequest): string {
  if (req.text?.format && req.text.format.type !== 'text') return content;
  const last = messages[messages.length - 1];
  if (last?.role !== 'user') return content;
  const prompt = messageText(last);
  if (echoRequest(prompt) !== null) return content;
  const earlier = messages.slice(0, -1).filter((m) => m.role !== 'system' || m.name === COMPACTION_NAME);
  if (RECALL.test(prompt)) return recall(earlier);
  const turn = messages.filter((m) => m.role === 'user').length;
  const compacted = earlier.some((m) => m.name === COMPACTION_NAME);
  if (turn <= 1 && !compacted) return content;
  return `(Turn ${turn} of this conversation${compacted ? ', continuing from compacted context' : ''}.) ${content}`;
}

/** Cuts reasoning and visible output to `limit` tokens together. */
function applyLimit(choice: ChoicePlan, annotations: UrlCitation[], limit: number): { choice: ChoicePlan; annotations: UrlCitation[]; incomplete: boolean } {
  const reasoning = choice.reasoningTokens.length;
  if (reasoning >= limit && (reasoning > limit || choice.contentTokens.length > 0 || choice.toolCalls.length > 0)) {
    const kept = choice.reasoningTokens.slice(0, limit);
    return { choice: { ...choice, reasoning: kept.join(''), reasoningTokens: kept, content: null, contentTokens: [], toolCalls: [], finishReason: 'length' }, annotations: [], incomplete: true };
  }
  const room = limit - reasoning;
  if (choice.content !== null && choice.contentTokens.length > room) {
    const kept = choice.contentTokens.slice(0, room);
    const text = kept.join('');
    return { choice: { ...choice, content: text, contentTokens: kept, finishReason: 'length' }, annotations: annotations.filter((a) => (a.end_index ?? 0) <= text.length), incomplete: true };
  }
  const callTokens = choice.toolCalls.reduce((n, c) => n + tokenize(c.name).length + tokenize(c.arguments).length + 3, 0);
  if (choice.toolCalls.length > 0 && callTokens > room) {
    return { choice: { ...choice, toolCalls: [], content: '', contentTokens: [], finishReason: 'length' }, annotations: [], incomplete: true };
  }
  return { choice, annotations, incomplete: false };
}

/** The whole plan of one response. */
export function planResponse(req: ResponseCreateRequest, model: LanguageEntry, messages: ChatMessage[]): ResponsePlan {
  const chatReq = asChatRequest(req, model, messages);
  let choice = planChoices(chatReq, model)[0];
  if (req.max_tool_calls && choice.toolCalls.length > req.max_tool_calls) {
    choice = { ...choice, toolCalls: choice.toolCalls.slice(0, req.max_tool_calls) };
  }
  const lastUser = messageText([...messages].reverse().find((m) => m.role === 'user'));
  const search = decideSearch(req, lastUser);
  const rng = new Rng(hashSeed(String(requestSeed(chatReq, model)), 'responses'));
  const sources = search ? syntheticSources(lastUser, search, rng.fork('search')) : [];
  let annotations: UrlCitation[] = [];
  if (choice.content !== null && choice.toolCalls.length === 0) {
    let text = adjustText(choice.content, messages, req);
    if (search?.returnCitations && (!req.text?.format || req.text.format.type === 'text')) {
      ({ text, annotations } = citeSources(text, sources));
    }
    choice = { ...choice, content: text, contentTokens: tokenize(text), logprobs: null };
  }
  const limited = applyLimit(choice, annotations, req.max_output_tokens ?? LIMITS.defaultMaxOutputTokens);
  return { choice: limited.choice, annotations: limited.annotations, search, sources, incomplete: limited.incomplete };
}
