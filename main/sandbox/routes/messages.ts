/**
 * POST /v1/messages (plain and streamed), the Anthropic-style Messages interface. Requests are
 * checked with the shared validator (422 for a body of the wrong shape, 400 for a broken rule,
 * 404 for an unknown model), planned once, and rendered as a message or as `event:` + `data:`
 * frames ending with `data: [DONE]` (wire-notes §1.1, §1.4).
 */
import { randomUUID } from 'node:crypto';
import { validateMessagesRequest } from '../../../shared/validate/messages';
import type { MessagesRequest, MessagesUsage } from '../../../shared/wire/messages';
import { countPrompt } from '../chat/prompt';
import type { SandboxEnv } from '../env';
import { SandboxError } from '../errors';
import { planMessage, type MessagesPlan } from '../messages/plan';
import { messagesStreamError, streamFrames, toMessage, type MessageMeta } from '../messages/render';
import { toChatRequest } from '../messages/to-chat';
import { sendJson, type RequestContext, type Route } from '../route';
import { openEventStream, sendEventSteps } from './event-stream';
import { checkContext, checkedModel } from './request-checks';

interface Prepared {
  req: MessagesRequest;
  meta: MessageMeta;
  plan: MessagesPlan;
  usage: MessagesUsage;
}

/** Validates, resolves the model, counts the prompt and plans the reply. */
function prepare(body: unknown, team: string, env: SandboxEnv): Prepared {
  const model = checkedModel(body, validateMessagesRequest);
  const req = body as MessagesRequest;
  const chatReq = toChatRequest(req, model.id);
  const hasImage = chatReq.messages.some((m) => Array.isArray(m.content) && m.content.some((p) => p.type === 'image_url'));
  if (hasImage && !model.input_modalities.includes('image')) {
    throw new SandboxError(400, `The model ${model.id} does not accept image input; remove the image blocks or pick a model with image input.`);
  }
  const prompt = countPrompt(chatReq);
  const promptTokens = prompt.textTokens + prompt.imageTokens;
  checkContext(model, promptTokens, 'Shorten the messages.');
  const cached = Math.min(env.prefixCache.lookupAndStore(`${team}:${model.id}`, chatReq.messages, prompt.prefixTokens), prompt.textTokens);
  const plan = planMessage(req, model);
  const usage: MessagesUsage = {
    input_tokens: promptTokens - cached,
    output_tokens: plan.outputTokens,
    cache_read_input_tokens: cached,
    cache_creation_input_tokens: 0,
  };
  return { req, meta: { id: randomUUID(), model: model.id }, plan, usage };
}

async function stream(ctx: RequestContext, env: SandboxEnv, p: Prepared): Promise<void> {
  const writer = openEventStream(ctx, env, messagesStreamError);
  await sendEventSteps(ctx, env, writer, streamFrames(p.meta, p.plan, p.usage), 'messages stream');
}

/** The Messages route. */
export function messagesRoutes(env: SandboxEnv): Route[] {
  return [
    {
      method: 'POST',
      path: '/v1/messages',
      async handle(ctx) {
        const prepared = prepare(ctx.body, ctx.team, env);
        if (prepared.req.stream === true) {
          await stream(ctx, env, prepared);
          return;
        }
        sendJson(ctx.res, 200, toMessage(prepared.meta, prepared.plan, prepared.usage));
      },
    },
  ];
}
