/**
 * Response usage (spec "Response usage"): the chat usage maths (shared/cost.ts prices, cached
 * prefix, reasoning billed as output) re-expressed in the Responses names, plus search: sources
 * used are billed at the model's `search_price` each, and a web_search tool counts as a
 * server-side tool call. `cost_in_nano_usd` is the same cost in 10^-9 USD (1 nano = 10 ticks).
 */
import type { ChatUsage } from '../../../shared/wire/chat';
import type { ResponseUsage } from '../../../shared/wire/responses';
import type { LanguageEntry } from '../catalogue';
import type { ResponsePlan } from './plan';

/** Ticks per nano-USD: 10^10 ticks per USD / 10^9 nano-USD per USD. */
const TICKS_PER_NANO_USD = 10;

/** The response usage for a planned response, from the chat usage of the same plan. */
export function toResponseUsage(chat: ChatUsage, model: LanguageEntry, plan: ResponsePlan): ResponseUsage {
  const sources = plan.sources.length;
  const webSearchCalls = plan.search?.viaTool && plan.search.types.includes('web') ? 1 : 0;
  const xSearchCalls = plan.search?.viaTool && plan.search.types.includes('x') ? 1 : 0;
  const ticks = chat.cost_in_usd_ticks + sources * (model.search_price ?? 0);
  const output = chat.completion_tokens + chat.completion_tokens_details.reasoning_tokens;
  return {
    input_tokens: chat.prompt_tokens,
    input_tokens_details: { cached_tokens: chat.prompt_tokens_details.cached_tokens },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: chat.completion_tokens_details.reasoning_tokens },
    total_tokens: chat.prompt_tokens + output,
    num_sources_used: sources,
    num_server_side_tools_used: webSearchCalls + xSearchCalls,
    cost_in_usd_ticks: ticks,
    cost_in_nano_usd: Math.round(ticks / TICKS_PER_NANO_USD),
    context_details: { input_tokens: chat.prompt_tokens, output_tokens: output },
    server_side_tool_usage_details: {
      code_interpreter_calls: 0,
      document_search_calls: 0,
      file_search_calls: 0,
      image_generation_calls: 0,
      mcp_calls: 0,
      web_search_calls: webSearchCalls,
      x_search_calls: xSearchCalls,
    },
  };
}
