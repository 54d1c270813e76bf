/** Builders for realistic runs used by the store tests. */
import type { NewRun } from '../../../../main/store/runs';
import type { ChatCompletion, ChatUsage } from '../../../../shared/wire/chat';

/** A pending chat run asking `prompt`, created at `createdAt`. */
export function newRun(id: string, createdAt: number, prompt: string, overrides: Partial<NewRun> = {}): NewRun {
  return {
    id,
    createdAt,
    endpoint: 'chat.completions',
    model: 'grok-4',
    connectionId: 'sandbox',
    connectionName: 'Sandbox',
    isSandbox: true,
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:7777/v1/chat/completions',
      headers: { 'content-type': 'application/json' },
      body: {
        model: overrides.model ?? 'grok-4',
        stream: true,
        messages: [
          { role: 'system', content: 'You are terse.' },
          { role: 'user', content: prompt },
        ],
      },
    },
    promptText: `You are terse.\n${prompt}`,
    status: 'pending',
    ...overrides,
  };
}

/** Usage as the service reports it. */
export function usage(prompt: number, completion: number): ChatUsage {
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    cost_in_usd_ticks: 1234,
    num_sources_used: 0,
    prompt_tokens_details: { text_tokens: prompt, audio_tokens: 0, image_tokens: 0, cached_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

/** A finished completion answering with `content`. */
export function completion(content: string, reasoning: string | null = null): ChatCompletion {
  return {
    id: 'cmpl-1',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'grok-4',
    choices: [
      {
        index: 0,
        finish_reason: 'stop',
        logprobs: null,
        message: { role: 'assistant', content, reasoning_content: reasoning, refusal: null, tool_calls: null },
      },
    ],
    citations: null,
    output_files: null,
    service_tier: 'default',
    system_fingerprint: null,
    usage: usage(10, 5),
  };
}
