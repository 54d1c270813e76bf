/**
 * The legacy text endpoints: POST /v1/completions (OpenAI-style, plain and streamed) and POST
 * /v1/complete (Anthropic-style, never streamed). Both are refused for reasoning models. Bodies
 * are checked with the shared validators (422 wrong shape, 400 broken rule, 404 unknown model).
 */
import { randomUUID } from 'node:crypto';
import { costInTicks } from '../../../shared/cost';
import { validateCompleteRequest, validateCompletionsRequest } from '../../../shared/validate/completions';
import type { ChatUsage } from '../../../shared/wire/chat';
import type { CompleteRequest, CompleteResponse, CompletionsRequest } from '../../../shared/wire/completions';
import type { LanguageEntry } from '../catalogue';
import { planComplete } from '../completions/complete';
import { planCompletions, promptList, type CompletionPlan } from '../completions/plan';
import { interleaveCompletions, toTextChunk, toTextCompletion, type TextCompletionMeta } from '../completions/render';
import type { SandboxEnv } from '../env';
import { countTokens } from '../generate/tokenizer';
import { sendJson, type RequestContext, type Route } from '../route';
import { logStopped, openEventStream } from './event-stream';
import { checkContext, checkedModel } from './request-checks';

/** Resolves the model, then validates with what it is; throws the right HTTP error. */
function completionsUsage(model: LanguageEntry, promptTokens: number, cached: number, plans: readonly CompletionPlan[]): ChatUsage {
  const completion = plans.reduce((n, p) => n + p.tokens.length, 0);
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completion,
    total_tokens: promptTokens + completion,
    prompt_tokens_details: { text_tokens: promptTokens, audio_tokens: 0, image_tokens: 0, cached_tokens: cached },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    num_sources_used: 0,
    cost_in_usd_ticks: costInTicks(model, { promptTokens, cachedTokens: cached, completionTokens: completion }),
  };
}

async function streamCompletions(
  ctx: RequestContext,
  env: SandboxEnv,
  meta: TextCompletionMeta,
  plans: CompletionPlan[],
  usage: ChatUsage,
  includeUsage: boolean,
): Promise<void> {
  const writer = openEventStream(ctx, env);
  const deltas = interleaveCompletions(plans);
  for (const [i, delta] of deltas.entries()) {
    await writer.send(toTextChunk(meta, [delta], includeUsage ? null : undefined));
    await writer.pace();
    if (!writer.open) {
      logStopped(ctx, env, 'completions stream', i + 1, deltas.length, 'chunks');
      return;
    }
  }
  if (includeUsage) await writer.send(toTextChunk(meta, [], usage));
  await writer.send('[DONE]');
  writer.end();
}

/** POST /v1/completions and POST /v1/complete. */
export function completionsRoutes(env: SandboxEnv): Route[] {
  return [
    {
      method: 'POST',
      path: '/v1/completions',
      async handle(ctx) {
        const model = checkedModel(ctx.body, validateCompletionsRequest);
        const req = ctx.body as CompletionsRequest;
        const prompts = promptList(req);
        const promptTokens = prompts.reduce((n, p) => n + countTokens(p), 0);
        checkContext(model, promptTokens, 'Shorten the prompt.');
        const cached = prompts.reduce(
          (n, p) => n + env.prefixCache.lookupAndStore(`${ctx.team}:${model.id}:completions`, [p], [countTokens(p)]),
          0,
        );
        const plans = planCompletions(req, model);
        const usage = completionsUsage(model, promptTokens, cached, plans);
        const meta: TextCompletionMeta = { id: randomUUID(), created: env.clock.seconds(), model: model.id, systemFingerprint: model.fingerprint };
        if (req.stream === true) {
          await streamCompletions(ctx, env, meta, plans, usage, req.stream_options?.include_usage === true);
          return;
        }
        sendJson(ctx.res, 200, toTextCompletion(meta, plans, usage));
      },
    },
    {
      method: 'POST',
      path: '/v1/complete',
      handle(ctx) {
        const model = checkedModel(ctx.body, validateCompleteRequest);
        const req = ctx.body as CompleteRequest;
        checkContext(model, countTokens(req.prompt), 'Shorten the prompt.');
        const plan = planComplete(req, model);
        const body: CompleteResponse = { type: 'completion', id: randomUUID(), completion: plan.completion, model: model.id, stop_reason: plan.stopReason };
        sendJson(ctx.res, 200, body);
      },
    },
  ];
}
