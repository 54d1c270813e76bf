/**
 * POST /v1/chat/completions (plain, streamed, deferred) and GET
 * /v1/chat/deferred-completion/{request_id}. Requests are checked with the shared validator
 * (422 for a body of the wrong shape, 400 for a broken rule), then planned once and rendered.
 */
import { randomUUID } from 'node:crypto';
import type { ChatRequest } from '../../../shared/wire/chat';
import { validateChatRequest } from '../../../shared/validate/chat';
import type { LanguageEntry } from '../catalogue';
import { planChoices, requestSeed, type ChoicePlan } from '../chat/plan';
import { countPrompt } from '../chat/prompt';
import { interleave, toChunk, toCompletion, type CompletionMeta } from '../chat/render';
import { buildUsage } from '../chat/usage';
import type { SandboxEnv } from '../env';
import { SandboxError } from '../errors';
import { hashSeed, Rng } from '../generate/rng';
import { searchFor } from '../generate/search';
import { messageText } from '../generate/tool-calls';
import { sendJson, type RequestContext, type Route } from '../route';
import { logStopped, openEventStream } from './event-stream';
import { checkContext, checkedModel, idempotencyKey } from './request-checks';
import type { ChatUsage } from '../../../shared/wire/chat';

interface Prepared {
  meta: CompletionMeta;
  choices: ChoicePlan[];
  usage: ChatUsage;
  /** URLs of the (synthetic) sources a search used, when citations are returned. */
  citations: string[] | null;
}

/** Validates, resolves the model and plans the whole answer. */
function prepare(body: unknown, team: string, env: SandboxEnv): { req: ChatRequest; prepared: Prepared } {
  const model = checkedModel(body, validateChatRequest);
  const req = body as ChatRequest;
  checkModelFit(req, model);
  const prompt = countPrompt(req);
  checkContext(model, prompt.textTokens + prompt.imageTokens, 'Shorten the messages.');
  const cached = env.prefixCache.lookupAndStore(`${team}:${model.id}`, req.messages, prompt.prefixTokens);
  const choices = planChoices(req, model);
  const meta: CompletionMeta = {
    id: randomUUID(),
    created: env.clock.seconds(),
    model: model.id,
    systemFingerprint: model.fingerprint,
    serviceTier: req.service_tier ?? 'default',
  };
  const usage = buildUsage(model, prompt, cached, choices);
  const lastUser = messageText([...req.messages].reverse().find((m) => m.role === 'user'));
  // Validated above, so the loose chat wire type holds the search.ts shapes.
  const search = searchFor(req, lastUser, new Rng(hashSeed(String(requestSeed(req, model)), 'search')));
  usage.num_sources_used = search.sources.length;
  usage.cost_in_usd_ticks += search.sources.length * (model.search_price ?? 0);
  const citations = search.decision?.returnCitations ? search.sources.map((s) => s.url) : null;
  return { req, prepared: { meta, choices, usage, citations } };
}

function checkModelFit(req: ChatRequest, model: LanguageEntry): void {
  if (model.input_modalities.includes('image')) return;
  const hasImage = req.messages.some((m) => Array.isArray(m.content) && m.content.some((p) => p.type === 'image_url'));
  if (hasImage) {
    throw new SandboxError(400, `The model ${model.id} does not accept image input; remove the image parts or pick a model with image input.`);
  }
}

async function stream(ctx: RequestContext, env: SandboxEnv, p: Prepared, includeUsage: boolean): Promise<void> {
  const writer = openEventStream(ctx, env);
  const rounds = interleave(p.choices);
  for (const [i, round] of rounds.entries()) {
    for (const choice of round) {
      const chunk = toChunk(p.meta, [choice], includeUsage ? null : undefined);
      // Citations ride on the stream's last chunk (wire-notes §1.2).
      const last = !includeUsage && i === rounds.length - 1 && choice === round[round.length - 1];
      await writer.send(last && p.citations ? { ...chunk, citations: p.citations } : chunk);
    }
    await writer.pace();
    if (!writer.open) {
      logStopped(ctx, env, 'stream', i + 1, rounds.length, 'rounds');
      return;
    }
  }
  if (includeUsage) await writer.send({ ...toChunk(p.meta, [], p.usage), ...(p.citations ? { citations: p.citations } : {}) });
  await writer.send('[DONE]');
  writer.end();
}

/** The chat routes. */
export function chatRoutes(env: SandboxEnv): Route[] {
  return [
    {
      method: 'POST',
      path: '/v1/chat/completions',
      async handle(ctx) {
        const key = idempotencyKey(ctx);
        const bodyText = JSON.stringify(ctx.body);
        if (key && (ctx.body as { deferred?: unknown } | null)?.deferred === true) {
          const seen = env.deferred.lookupKey(ctx.team, key, bodyText, env.clock.now());
          if (seen.found === 'conflict') {
            throw new SandboxError(409, `The Idempotency-Key "${key}" was already used with a different request in the last 24 hours; use a new key for a new request.`);
          }
          if (seen.found === 'same') {
            env.log(`deferred completion ${seen.id} replayed for Idempotency-Key ${key}`);
            sendJson(ctx.res, 200, { request_id: seen.id }, { 'idempotent-replayed': 'true' });
            return;
          }
        }
        const { req, prepared } = prepare(ctx.body, ctx.team, env);
        if (req.deferred === true) {
          const completion = { ...toCompletion(prepared.meta, prepared.choices, prepared.usage), citations: prepared.citations };
          const createdMs = env.clock.now();
          const id = env.deferred.add(ctx.team, createdMs, createdMs + env.deferredDelayMs, completion);
          if (key) env.deferred.rememberKey(ctx.team, key, bodyText, id, env.clock.now());
          env.log(`deferred completion ${id} created`);
          sendJson(ctx.res, 200, { request_id: id });
          return;
        }
        if (req.stream === true) {
          await stream(ctx, env, prepared, req.stream_options?.include_usage === true);
          return;
        }
        sendJson(ctx.res, 200, { ...toCompletion(prepared.meta, prepared.choices, prepared.usage), citations: prepared.citations });
      },
    },
    {
      method: 'GET',
      path: '/v1/chat/deferred-completion/:id',
      handle(ctx) {
        const state = env.deferred.get(ctx.params.id, ctx.team, env.clock.now());
        if (state.state === 'unknown') {
          throw new SandboxError(404, `No deferred completion with request id ${ctx.params.id} exists for your team.`);
        }
        if (state.state === 'pending') {
          ctx.res.writeHead(202, { 'content-length': 0 });
          ctx.res.end();
          return;
        }
        sendJson(ctx.res, 200, state.result);
      },
    },
  ];
}
