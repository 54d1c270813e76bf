/**
 * Images (spec "Images", wire-notes §8.1): `POST /v1/images/generations` and `/v1/images/edits`
 * (JSON, or multipart as the OpenAI SDK sends it), answering the Image result with real JPEGs,
 * and `GET /media/images/<token>.jpg`, the URLs those results point at (no API key, like a CDN;
 * they last MediaStore.ttlMs on the sandbox clock).
 */
import { TICKS_PER_CENT } from '../../../shared/cost';
import { isObject } from '../../../shared/is-object';
import { validateImageEditRequest, validateImageGenerationRequest } from '../../../shared/families/images/validate';
import { IMAGE_INPUT_MIME_TYPES, IMAGE_LIMITS, type ImageAspectRatio, type ImageDatum, type ImageResolution, type ImageResponseFormat, type ImageResult } from '../../../shared/wire/images';
import type { ImageGenerationModel } from '../../../shared/wire/models';
import { findImageModel, findLanguageModel, findVideoModel, IMAGE_MODELS } from '../catalogue';
import type { SandboxEnv } from '../env';
import { modelNotFound, SandboxError } from '../errors';
import { ownOrigin } from '../host';
import { byteRange, UNTRUSTED_CONTENT_HEADERS } from '../files/download';
import { readEditBody } from '../images/edit-body';
import { produceImages, type ImageOrder } from '../images/produce';
import { ownUrlMatcher, resolveInput, type InputContext } from '../media/input';
import { mediaGoneMessage } from '../media/store';
import { ownMediaLookup } from './own-media';
import { sendJson, type RequestContext, type Route } from '../route';
import { refuse } from './request-checks';

const DEFAULT_MODEL = IMAGE_MODELS[0].id;


/** The body's model (default the image model), after the body's own rules: 404 unknown, 400 not an image model. */
function checkedImageModel(body: unknown, kind: ImageOrder['kind']): ImageGenerationModel {
  const id = isObject(body) && typeof body.model === 'string' ? body.model : DEFAULT_MODEL;
  const entry = findImageModel(id);
  const validate = kind === 'edit' ? validateImageEditRequest : validateImageGenerationRequest;
  const violations = validate(body, { maxPromptLength: entry?.max_prompt_length ?? IMAGE_LIMITS.maxPromptLengthDefault });
  if (violations.length > 0) refuse(violations);
  if (entry) return entry;
  const other = findLanguageModel(id) ? 'a language model' : findVideoModel(id) ? 'a video model' : null;
  if (other) throw new SandboxError(400, `model ${id} is ${other}; the images endpoints take an image generation model (${IMAGE_MODELS.map((m) => m.id).join(', ')}).`);
  throw modelNotFound(id);
}

/** What the validated body asks for (inputs still unresolved). */
function orderOf(body: Record<string, unknown>, kind: ImageOrder['kind'], model: ImageGenerationModel) {
  return {
    kind,
    model,
    prompt: body.prompt as string,
    n: (body.n as number | null | undefined) ?? IMAGE_LIMITS.nDefault,
    aspectRatio: (body.aspect_ratio as ImageAspectRatio | null | undefined) ?? 'auto',
    resolution: (body.resolution as ImageResolution | null | undefined) ?? '1k',
    responseFormat: (body.response_format as ImageResponseFormat | null | undefined) ?? 'url',
  };
}

function inputContext(env: SandboxEnv, ctx: RequestContext): InputContext {
  const nowMs = env.clock.now();
  return {
    files: env.files,
    team: ctx.team,
    nowMs,
    isOwnUrl: ownUrlMatcher(ctx.req),
    ownMedia: ownMediaLookup(env),
  };
}

async function answer(env: SandboxEnv, ctx: RequestContext, kind: ImageOrder['kind'], body: unknown): Promise<void> {
  const model = checkedImageModel(body, kind);
  const b = body as Record<string, unknown>;
  const { responseFormat, ...order } = orderOf(b, kind, model);
  let inputs: ImageOrder['inputs'] = [];
  if (kind === 'edit') {
    const given = b.image !== undefined && b.image !== null ? [{ field: 'image', value: b.image }] : (b.images as unknown[]).map((value, i) => ({ field: `images[${i}]`, value }));
    const ictx = inputContext(env, ctx);
    inputs = await Promise.all(given.map(({ field, value }) => resolveInput(value, { field, accept: IMAGE_INPUT_MIME_TYPES, maxBytes: IMAGE_LIMITS.maxInputImageBytes }, ictx)));
  }
  const images = await produceImages({ ...order, inputs }, env.codecs, ctx.signal);
  if (ctx.signal.aborted) return;
  const now = env.clock.now();
  const data: ImageDatum[] = images.map((img) => {
    if (responseFormat === 'b64_json') return { b64_json: Buffer.from(img.bytes.buffer, img.bytes.byteOffset, img.bytes.byteLength).toString('base64'), mime_type: img.mime, revised_prompt: img.revisedPrompt };
    const { path } = env.media.put('images', 'jpg', img.bytes, img.mime, now);
    return { url: `${ownOrigin(ctx.req)}${path}`, mime_type: img.mime, revised_prompt: img.revisedPrompt };
  });
  const result: ImageResult = { data, usage: { cost_in_usd_ticks: images.length * model.image_price * TICKS_PER_CENT } };
  sendJson(ctx.res, 200, result);
}

/** Serves a produced image: its type and length, a cache lifetime up to its expiry, one byte range. */
function serveMedia(env: SandboxEnv, ctx: RequestContext, kind: string): void {
  const path = `/media/${kind}/${ctx.params.name}`;
  const now = env.clock.now();
  const found = env.media.get(path, now);
  if (found.state !== 'found') throw new SandboxError(404, mediaGoneMessage(found, env.media.ttlMs, env.media.maxBytes));
  const { bytes, mime, expiresMs } = found.entry;
  const range = byteRange(ctx.req.headers.range, bytes.byteLength);
  const headers: Record<string, string | number> = {
    ...UNTRUSTED_CONTENT_HEADERS,
    'content-type': mime,
    'cache-control': `public, max-age=${Math.max(0, Math.floor((expiresMs - now) / 1000))}, immutable`,
    'accept-ranges': 'bytes',
    'content-disposition': `inline; filename="${ctx.params.name}"`,
  };
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (range) {
    ctx.res.writeHead(206, { ...headers, 'content-range': `bytes ${range.start}-${range.end}/${bytes.byteLength}`, 'content-length': range.end - range.start + 1 });
    ctx.res.end(body.subarray(range.start, range.end + 1));
  } else {
    ctx.res.writeHead(200, { ...headers, 'content-length': bytes.byteLength });
    ctx.res.end(body);
  }
}

/** The images routes and the media URL route. */
export function imagesRoutes(env: SandboxEnv): Route[] {
  return [
    { method: 'POST', path: '/v1/images/generations', handle: (ctx) => answer(env, ctx, 'generation', ctx.body) },
    {
      method: 'POST',
      path: '/v1/images/edits',
      // JSON or multipart (the OpenAI SDK's form), with a larger limit than JSON routes: read by the route.
      body: 'stream',
      handle: async (ctx) => answer(env, ctx, 'edit', await readEditBody(ctx.req)),
    },
    { method: 'GET', path: '/media/images/:name', public: true, handle: (ctx) => serveMedia(env, ctx, 'images') },
  ];
}
