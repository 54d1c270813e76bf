/**
 * Folds `chat.completion.chunk`s into the ChatCompletion a non-streamed call would have returned:
 * per choice the content, reasoning, refusal, tool calls (whole, or OpenAI-style argument
 * fragments merged by index), logprobs and finish reason; plus usage, citations and files.
 * result() can be called at any time, so a cut stream still yields its partial output.
 */
import type {
  ChatChoice,
  ChatCompletion,
  ChatCompletionChunk,
  ChatToolCall,
  ChatUsage,
  LogprobEntry,
} from '../../shared/wire/chat';

interface ToolCallParts {
  id: string;
  type: string;
  name: string;
  args: string[];
}

interface ChoiceParts {
  content: string[] | null;
  reasoning: string[] | null;
  refusal: string[] | null;
  toolCalls: Map<number, ToolCallParts>;
  logprobs: LogprobEntry[] | null;
  finishReason: string | null;
}

const ZERO_USAGE: ChatUsage = {
  prompt_tokens: 0,
  completion_tokens: 0,
  total_tokens: 0,
  cost_in_usd_ticks: 0,
  num_sources_used: 0,
  prompt_tokens_details: { text_tokens: 0, audio_tokens: 0, image_tokens: 0, cached_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
};

function append(parts: string[] | null, piece: string | null | undefined): string[] | null {
  if (typeof piece !== 'string') return parts;
  if (parts === null) return [piece];
  parts.push(piece);
  return parts;
}

/** Accumulates one streamed chat completion. Text is kept in pieces and joined only in result(). */
export class ChatAssembler {
  private id = '';
  private created = 0;
  private model = '';
  private systemFingerprint: string | null = null;
  private serviceTier: 'default' | 'priority' = 'default';
  private readonly choices = new Map<number, ChoiceParts>();
  private usageValue: ChatUsage | null = null;
  private citations: string[] | null = null;
  private outputFiles: unknown[] | null = null;
  private chunkCount = 0;

  /** Adds one chunk (in arrival order). */
  push(chunk: ChatCompletionChunk): void {
    this.chunkCount++;
    if (!this.id && chunk.id) this.id = chunk.id;
    if (!this.created && chunk.created) this.created = chunk.created;
    if (!this.model && chunk.model) this.model = chunk.model;
    if (chunk.system_fingerprint) this.systemFingerprint = chunk.system_fingerprint;
    const extra = chunk as ChatCompletionChunk & { service_tier?: unknown; output_files?: unknown };
    if (extra.service_tier === 'default' || extra.service_tier === 'priority') this.serviceTier = extra.service_tier;
    if (Array.isArray(extra.output_files)) this.outputFiles = extra.output_files;
    if (chunk.usage) this.usageValue = chunk.usage;
    if (Array.isArray(chunk.citations)) this.citations = chunk.citations;
    for (const c of chunk.choices ?? []) {
      const choice = this.choice(c.index ?? 0);
      const delta = c.delta ?? {};
      choice.content = append(choice.content, delta.content);
      choice.reasoning = append(choice.reasoning, delta.reasoning_content);
      choice.refusal = append(choice.refusal, delta.refusal);
      for (const tc of delta.tool_calls ?? []) this.addToolCall(choice, tc);
      const lp = c.logprobs?.content;
      if (Array.isArray(lp)) choice.logprobs = (choice.logprobs ?? []).concat(lp);
      if (c.finish_reason) choice.finishReason = c.finish_reason;
    }
  }

  /** How many chunks were pushed (0 = nothing arrived). */
  get chunks(): number {
    return this.chunkCount;
  }

  /** The usage chunk's usage, or null when none arrived (result() then reports zeros). */
  usage(): ChatUsage | null {
    return this.usageValue;
  }

  /** The completion so far; choices in index order. */
  result(): ChatCompletion {
    const choices: ChatChoice[] = [...this.choices.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([index, c]) => ({
        index,
        finish_reason: c.finishReason,
        logprobs: c.logprobs ? { content: c.logprobs } : null,
        message: {
          role: 'assistant',
          content: c.content ? c.content.join('') : null,
          reasoning_content: c.reasoning ? c.reasoning.join('') : null,
          refusal: c.refusal ? c.refusal.join('') : null,
          tool_calls: c.toolCalls.size > 0 ? toolCallList(c.toolCalls) : null,
        },
      }));
    return {
      id: this.id,
      object: 'chat.completion',
      created: this.created,
      model: this.model,
      choices,
      citations: this.citations,
      output_files: this.outputFiles,
      service_tier: this.serviceTier,
      system_fingerprint: this.systemFingerprint,
      usage: this.usageValue ?? ZERO_USAGE,
    };
  }

  private choice(index: number): ChoiceParts {
    let c = this.choices.get(index);
    if (!c) {
      c = { content: null, reasoning: null, refusal: null, toolCalls: new Map(), logprobs: null, finishReason: null };
      this.choices.set(index, c);
    }
    return c;
  }

  private addToolCall(choice: ChoiceParts, tc: Partial<ChatToolCall>): void {
    // Calls without an index are whole calls: give each its own slot after the existing ones.
    const index = typeof tc.index === 'number' ? tc.index : nextIndex(choice.toolCalls);
    let call = choice.toolCalls.get(index);
    if (!call) {
      call = { id: '', type: 'function', name: '', args: [] };
      choice.toolCalls.set(index, call);
    }
    if (tc.id) call.id = tc.id;
    if (tc.type) call.type = tc.type;
    if (tc.function?.name && !call.name) call.name = tc.function.name;
    if (typeof tc.function?.arguments === 'string') call.args.push(tc.function.arguments);
  }
}

function nextIndex(calls: Map<number, ToolCallParts>): number {
  let max = -1;
  for (const k of calls.keys()) if (k > max) max = k;
  return max + 1;
}

function toolCallList(calls: Map<number, ToolCallParts>): ChatToolCall[] {
  return [...calls.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, c]) => ({ id: c.id, type: c.type, function: { name: c.name, arguments: c.args.join('') } }));
}
