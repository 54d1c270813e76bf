/**
 * The Responses interface: POST /v1/responses (plain and streamed), GET and DELETE
 * /v1/responses/{id}, POST /v1/responses/compact. Requests are checked with the shared validator
 * (422 wrong shape, 400 broken rule), the conversation is built from the stored chain and the
 * input, planned once, stored (unless store: false), then rendered.
 */
import { randomUUID } from 'node:crypto';
import type { Compaction, ResponseCreateRequest, ResponseObject } from '../../../shared/wire/responses';
import { validateCompactRequest, validateResponsesRequest } from '../../../shared/validate/responses';
import type { ChatMessage } from '../../../shared/wire/chat';
import type { LanguageEntry } from '../catalogue';
import { countPrompt } from '../chat/prompt';
import { buildUsage } from '../chat/usage';
import type { SandboxEnv } from '../env';
import { modelNotFound, SandboxError } from '../errors';
import { countTokens } from '../generate/tokenizer';
import { summarize } from '../responses/compaction';
import { checkCallOutputs, inputToMessages, outputToMessages } from '../responses/conversation';
import { asChatRequest, effectiveEffort, planResponse, type ResponsePlan } from '../responses/plan';
import { outputItems, responseObject, type ResponseMeta } from '../responses/render';
import { goneMessage } from '../responses/store';
import { responsesStreamError, streamSteps } from '../responses/stream';
import { toResponseUsage } from '../responses/usage';
import { sendJson, type RequestContext, type Route } from '../route';
import { openEventStream, sendEventSteps } from './event-stream';
import { checkContext, checkedModel, modelOf, refuse } from './request-checks';

function checkModelFit(messages: readonly ChatMessage[], model: LanguageEntry): void {
  if (model.input_modalities.includes('image')) return;
  if (messages.some((m) => Array.isArray(m.content) && m.content.some((p) => p.type === 'image_url'))) {
    throw new SandboxError(400, `The model ${model.id} does not accept image input; remove the input_image parts or pick a model with image input.`);
  }
}

interface Prepared {
  meta: ResponseMeta;
  plan: ResponsePlan;
  response: ResponseObject;
}

/** Validates, builds the conversation, plans, and stores the response. */
function create(ctx: RequestContext, env: SandboxEnv): Prepared {
  const model = checkedModel(ctx.body, validateResponsesRequest);
  const req = ctx.body as ResponseCreateRequest;
  const now = env.clock.now();
  let prior: ChatMessage[] = [];
  if (req.previous_response_id) {
    const found = env.responses.lookup(req.previous_response_id, ctx.team, now);
    if (found.state !== 'found') throw new SandboxError(404, goneMessage(req.previous_response_id, found.state, true));
    prior = found.entry.conversation;
  }
  const input = inputToMessages(req.input, { team: ctx.team, codec: env.compaction });
  const messages: ChatMessage[] = [...(req.instructions ? [{ role: 'system' as const, content: req.instructions }] : []), ...prior, ...input];
  checkCallOutputs(messages);
  checkModelFit(messages, model);
  const prompt = countPrompt(asChatRequest(req, model, messages));
  const promptTokens = prompt.textTokens + prompt.imageTokens;
  checkContext(model, promptTokens, 'Compact it (POST /v1/responses/compact) or start a shorter one.', 'the conversation has');
  const cached = env.prefixCache.lookupAndStore(`${ctx.team}:${model.id}`, messages, prompt.prefixTokens);
  const plan = planResponse(req, model, messages);
  const usage = toResponseUsage(buildUsage(model, prompt, cached, [plan.choice]), model, plan);
  const meta: ResponseMeta = {
    id: randomUUID(),
    createdAt: Math.floor(now / 1000),
    model: model.id,
    req,
    effort: effectiveEffort(req, model),
    reasoningModel: model.reasoning,
    store: req.store !== false,
  };
  const output = outputItems(meta, plan);
  const response = responseObject(meta, {
    status: plan.incomplete ? 'incomplete' : 'completed',
    output,
    usage,
    completedAt: plan.incomplete ? null : env.clock.seconds(),
  });
  if (meta.store) {
    env.responses.put({ team: ctx.team, response, conversation: [...prior, ...input, ...outputToMessages(output)], createdMs: now });
  } else {
    env.responses.markUnstored(ctx.team, meta.id);
  }
  return { meta, plan, response };
}

async function stream(ctx: RequestContext, env: SandboxEnv, p: Prepared): Promise<void> {
  const writer = openEventStream(ctx, env, responsesStreamError);
  const usage = p.response.usage;
  if (!usage) throw new Error('a planned response always has usage');
  const steps = streamSteps(p.meta, p.plan, usage, p.response.completed_at ?? env.clock.seconds());
  await sendEventSteps(ctx, env, writer, steps, 'stream');
}

function compact(ctx: RequestContext, env: SandboxEnv): Compaction {
  const violations = validateCompactRequest(ctx.body);
  if (violations.length > 0) refuse(violations);
  const { id: modelId, entry: model } = modelOf(ctx.body);
  if (!model) throw modelNotFound(String(modelId));
  const body = ctx.body as { input: Parameters<typeof inputToMessages>[0] };
  const messages = inputToMessages(body.input, { team: ctx.team, codec: env.compaction });
  const summary = summarize(messages);
  const id = `cmp_${randomUUID()}`;
  const encrypted = env.compaction.encode({ v: 1, team: ctx.team, model: model.id, summary, dropped: messages.length });
  const inputTokens = countPrompt({ model: model.id, messages }).textTokens;
  const outputTokens = countTokens(summary);
  return {
    id,
    object: 'response.compaction',
    created_at: env.clock.seconds(),
    model: model.id,
    output: [{ type: 'compaction', id, encrypted_content: encrypted }],
    usage: {
      dropped_message_count: messages.length,
      input_tokens: inputTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: outputTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: inputTokens + outputTokens,
    },
  };
}

/** The responses routes. */
export function responsesRoutes(env: SandboxEnv): Route[] {
  return [
    {
      method: 'POST',
      path: '/v1/responses',
      async handle(ctx) {
        const prepared = create(ctx, env);
        if ((ctx.body as ResponseCreateRequest).stream === true) await stream(ctx, env, prepared);
        else sendJson(ctx.res, 200, prepared.response);
      },
    },
    {
      method: 'POST',
      path: '/v1/responses/compact',
      handle(ctx) {
        sendJson(ctx.res, 200, compact(ctx, env));
      },
    },
    {
      method: 'GET',
      path: '/v1/responses/:id',
      handle(ctx) {
        const found = env.responses.lookup(ctx.params.id, ctx.team, env.clock.now());
        if (found.state !== 'found') throw new SandboxError(404, goneMessage(ctx.params.id, found.state, false));
        sendJson(ctx.res, 200, found.entry.response);
      },
    },
    {
      method: 'DELETE',
      path: '/v1/responses/:id',
      handle(ctx) {
        const found = env.responses.delete(ctx.params.id, ctx.team, env.clock.now());
        if (found.state !== 'found') throw new SandboxError(404, goneMessage(ctx.params.id, found.state, false));
        sendJson(ctx.res, 200, { id: ctx.params.id, object: 'response', deleted: true });
      },
    },
  ];
}
