/**
 * Video generation (spec "Video (asynchronous)", wire-notes §8.2): the three creates answer
 * `{request_id}` once everything about the request has been checked; `GET /v1/videos/{id}`
 * answers the Video result on the sandbox clock (per team); the result's URL
 * `/media/videos/<token>.mp4` is served without an API key (the token is the secret), with Range
 * requests so a player can seek, until it expires an hour after the job's ready time.
 *
 * Test trigger: the request header `x-sandbox-video-fail: <code>` makes the job fail later with
 * that spec code (`invalid_argument`, `permission_denied`, `failed_precondition`,
 * `service_unavailable`, `internal_error`), or with `overload` refuses the create with a 503.
 */
import { rangeResponseHead } from '../../../shared/http-range';
import { VIDEO_ERROR_CODES } from '../../../shared/wire/videos';
import type { SandboxEnv } from '../env';
import { SandboxError } from '../errors';
import { UNTRUSTED_CONTENT_HEADERS } from '../files/download';
import { ownOrigin } from '../host';
import { ownUrlMatcher, type InputContext } from '../media/input';
import { idempotencyKey } from './request-checks';
import { ownMediaLookup } from './own-media';
import { sendJson, type RequestContext, type Route } from '../route';
import type { VideoKind } from '../video/request';
import { VIDEO_URL_LIFETIME_MS, type VideoFailRequest } from '../video/service';

export const VIDEO_FAIL_HEADER = 'x-sandbox-video-fail';

const FAIL_VALUES: readonly string[] = [...VIDEO_ERROR_CODES, 'overload'];

/** The failure the header asks for, or null; 400 naming the header when it says something else. */
export function parseVideoFail(header: string | string[] | undefined): VideoFailRequest | null {
  if (header === undefined) return null;
  const v = (Array.isArray(header) ? header.join(',') : header).trim().toLowerCase();
  if (v === '') return null;
  if (!FAIL_VALUES.includes(v)) throw new SandboxError(400, `${VIDEO_FAIL_HEADER}: "${v}" is not one of ${FAIL_VALUES.join(', ')}.`);
  return v as VideoFailRequest;
}


function inputContext(env: SandboxEnv, ctx: RequestContext): InputContext {
  return {
    files: env.files,
    team: ctx.team,
    nowMs: env.clock.now(),
    isOwnUrl: ownUrlMatcher(ctx.req),
    ownMedia: ownMediaLookup(env),
  };
}

export function videosRoutes(env: SandboxEnv): Route[] {
  const create =
    (kind: VideoKind) =>
    async (ctx: RequestContext): Promise<void> => {
      const fail = parseVideoFail(ctx.req.headers[VIDEO_FAIL_HEADER]);
      // Idempotent by `Idempotency-Key`, as deferred chat is: a client that crashed before it saw
      // the request id sends the create again and gets the first one's id, not a second video.
      // The keys live in the sandbox's one key book (the deferred store's, kept in deferred.json),
      // under their own slot so a chat key never matches a video create.
      const key = idempotencyKey(ctx);
      const slotKey = key === null ? null : `videos/${kind}\n${key}`;
      const bodyText = JSON.stringify({ body: ctx.body, fail });
      if (slotKey !== null) {
        const seen = env.deferred.lookupKey(ctx.team, slotKey, bodyText, env.clock.now());
        if (seen.found === 'conflict') {
          throw new SandboxError(409, `The Idempotency-Key "${key}" was already used with a different request in the last 24 hours; use a new key for a new request.`);
        }
        if (seen.found === 'same') {
          env.log(`video ${seen.id} replayed for Idempotency-Key ${key}`);
          sendJson(ctx.res, 200, { request_id: seen.id }, { 'idempotent-replayed': 'true' });
          return;
        }
      }
      const id = await env.videos.create(kind, ctx.body, { team: ctx.team, fail, inputs: inputContext(env, ctx) });
      if (slotKey !== null) env.deferred.rememberKey(ctx.team, slotKey, bodyText, id, env.clock.now());
      sendJson(ctx.res, 200, { request_id: id });
    };
  return [
    { method: 'POST', path: '/v1/videos/generations', handle: create('generation') },
    { method: 'POST', path: '/v1/videos/edits', handle: create('edit') },
    { method: 'POST', path: '/v1/videos/extensions', handle: create('extension') },
    {
      method: 'GET',
      path: '/v1/videos/:id',
      async handle(ctx) {
        const result = await env.videos.poll(ctx.params.id, ctx.team, ownOrigin(ctx.req));
        if (!result) {
          throw new SandboxError(404, `Video request ${ctx.params.id} does not exist for your team. Check the request_id (video requests are per team).`);
        }
        sendJson(ctx.res, 200, result);
      },
    },
    {
      method: 'GET',
      path: '/media/videos/:name',
      public: true,
      async handle(ctx) {
        const m = /^([A-Za-z0-9_-]+)\.mp4$/.exec(ctx.params.name);
        const media = m ? await env.videos.mediaOf(m[1]) : ({ state: 'unknown' } as const);
        if (media.state === 'unknown') throw new SandboxError(404, 'This video URL does not exist.');
        if (media.state === 'expired') {
          throw new SandboxError(
            410,
            `This video URL expired at ${new Date(media.at).toISOString()} (sandbox clock): video URLs work for ${VIDEO_URL_LIFETIME_MS / 3_600_000} hour after the video is done. Download videos when they are done, or ask for storage_options to keep a copy in Files.`,
          );
        }
        if (media.state === 'not-ready') throw new SandboxError(404, 'This video is not ready yet: poll GET /v1/videos/{request_id} until it is done.');
        const { bytes } = media;
        const head = rangeResponseHead(ctx.req.headers.range, bytes.length, 'video/mp4');
        ctx.res.writeHead(head.status, { ...UNTRUSTED_CONTENT_HEADERS, ...head.headers, 'cache-control': 'private, max-age=3600' });
        ctx.res.end(head.status === 206 ? bytes.subarray(head.start, head.end + 1) : head.status === 200 ? bytes : undefined);
      },
    },
  ];
}
