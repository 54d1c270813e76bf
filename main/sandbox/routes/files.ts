/**
 * The Files API (spec "Files", wire-notes §5): upload (multipart, streamed to disk), list (sort,
 * pages, AIP-160 filter), metadata, content, PUT (filename / expiry), DELETE, and public URLs that
 * the sandbox serves itself at `/public/<token>/<filename>` without an API key. Per team; expiry
 * is on the sandbox clock (move it with `POST /sandbox/clock/advance`).
 */
import type { IncomingMessage } from 'node:http';
import type { FileObject, FilePublicUrl } from '../../../shared/wire/files';
import type { SandboxEnv } from '../env';
import { SandboxError } from '../errors';
import { ownOrigin } from '../host';
import { publicDisposition, sendFileBytes } from '../files/download';
import { compileFileFilter } from '../files/filter';
import { badCursor, listPage, parseListQuery } from '../files/list';
import { checkExpiresAfter, checkFilename } from '../files/rules';
import { fileGoneMessage, toFileObject, type FileRecord } from '../files/store';
import { receiveUpload } from '../files/upload';
import { sendJson, type RequestContext, type Route } from '../route';
import { isObject } from '../../../shared/is-object';


export function publicUrlOf(req: IncomingMessage, record: FileRecord): string | undefined {
  if (!record.publicUrl) return undefined;
  return `${ownOrigin(req)}/public/${record.publicUrl.token}/${encodeURIComponent(record.filename)}`;
}

/** The File a client sees now: the public URL only while it is active. */
function fileObject(env: SandboxEnv, req: IncomingMessage, record: FileRecord): FileObject {
  const url = record.publicUrl;
  const active = url && (url.expiresAt === null || env.clock.now() < url.expiresAt * 1000);
  return toFileObject(record, active ? publicUrlOf(req, record) : undefined);
}

function found(env: SandboxEnv, ctx: RequestContext): FileRecord {
  const lookup = env.files.lookup(ctx.params.id, ctx.team, env.clock.now());
  if (lookup.state !== 'found') throw new SandboxError(404, fileGoneMessage(ctx.params.id, lookup.state));
  return lookup.record;
}

/** A JSON object body; an empty body counts as `{}` (public-url creation is often sent bare). */
function objectBody(body: unknown, what: string): Record<string, unknown> {
  let value = body;
  if (Buffer.isBuffer(body)) {
    const text = body.toString('utf8');
    if (text.trim() === '') return {};
    try {
      value = JSON.parse(text) as unknown;
    } catch (err) {
      throw new SandboxError(400, `The request body is not valid JSON: ${(err as Error).message}`);
    }
  }
  if (!isObject(value)) throw new SandboxError(422, `${what} takes a JSON object.`);
  return value as Record<string, unknown>;
}

function onlyFields(body: Record<string, unknown>, allowed: string[], what: string): void {
  const extra = Object.keys(body).find((k) => !allowed.includes(k));
  if (extra !== undefined) throw new SandboxError(422, `Unknown field ${extra}: ${what} takes ${allowed.join(' and ')}.`);
}

function update(env: SandboxEnv, ctx: RequestContext): FileRecord {
  const body = objectBody(ctx.body, 'PUT /v1/files/{file_id}');
  onlyFields(body, ['filename', 'expires_after'], 'PUT /v1/files/{file_id}');
  const record = found(env, ctx);
  // Check everything before changing anything: a refused update leaves the file as it was.
  const filename = body.filename === undefined ? record.filename : checkFilename(body.filename);
  let expiresAt = record.expiresAt;
  if (body.expires_after === null) expiresAt = null;
  else if (body.expires_after !== undefined) expiresAt = env.clock.seconds() + checkExpiresAfter(body.expires_after);
  env.files.update(record, { filename, expiresAt });
  return record;
}

function publish(env: SandboxEnv, ctx: RequestContext): FilePublicUrl {
  const body = objectBody(ctx.body, 'POST /v1/files/{file_id}/public-url');
  onlyFields(body, ['expires_after'], 'POST /v1/files/{file_id}/public-url');
  const record = found(env, ctx);
  const expiresAt = body.expires_after === undefined || body.expires_after === null ? null : env.clock.seconds() + checkExpiresAfter(body.expires_after);
  env.files.publish(record, expiresAt);
  return { public_url: publicUrlOf(ctx.req, record) as string, public_url_expires_at: expiresAt };
}

/** The /v1/files routes and the public URL route. */
export function filesRoutes(env: SandboxEnv): Route[] {
  return [
    {
      method: 'POST',
      path: '/v1/files',
      body: 'stream',
      async handle(ctx) {
        const record = await receiveUpload({ req: ctx.req, store: env.files, team: ctx.team, nowMs: env.clock.now(), maxFileBytes: env.maxFileBytes });
        sendJson(ctx.res, 200, fileObject(env, ctx.req, record));
      },
    },
    {
      method: 'GET',
      path: '/v1/files',
      handle(ctx) {
        const q = parseListQuery(ctx.query);
        const keep = q.filter === null ? () => true : compileFileFilter(q.filter);
        const cursor = q.after === null ? null : (env.files.cursorRecord(q.after, ctx.team) ?? null);
        if (q.after !== null && cursor === null) throw badCursor(q.after);
        const { page, token, hasMore } = listPage(env.files.live(ctx.team, env.clock.now()), q, keep, cursor);
        // has_more is not in the spec; the official OpenAI SDK's auto-pagination stops without it.
        sendJson(ctx.res, 200, { data: page.map((r) => fileObject(env, ctx.req, r)), pagination_token: token, has_more: hasMore });
      },
    },
    { method: 'GET', path: '/v1/files/:id', handle: (ctx) => sendJson(ctx.res, 200, fileObject(env, ctx.req, found(env, ctx))) },
    {
      method: 'GET',
      path: '/v1/files/:id/content',
      async handle(ctx) {
        const format = ctx.query.get('format') ?? 'original';
        if (format !== 'original') {
          throw new SandboxError(400, `format must be "original" in the sandbox (it does not extract text); got "${format}".`);
        }
        await sendFileBytes(ctx.req, ctx.res, env.files, found(env, ctx), { contentType: 'application/octet-stream', disposition: 'attachment' });
      },
    },
    { method: 'PUT', path: '/v1/files/:id', handle: (ctx) => sendJson(ctx.res, 200, fileObject(env, ctx.req, update(env, ctx))) },
    {
      method: 'DELETE',
      path: '/v1/files/:id',
      handle(ctx) {
        const lookup = env.files.delete(ctx.params.id, ctx.team, env.clock.now());
        if (lookup.state !== 'found') throw new SandboxError(404, fileGoneMessage(ctx.params.id, lookup.state));
        sendJson(ctx.res, 200, { id: ctx.params.id, object: 'file', deleted: true });
      },
    },
    { method: 'POST', path: '/v1/files/:id/public-url', body: 'raw', handle: (ctx) => sendJson(ctx.res, 200, publish(env, ctx)) },
    {
      method: 'DELETE',
      path: '/v1/files/:id/public-url',
      handle(ctx) {
        const record = found(env, ctx);
        env.files.revoke(record);
        sendJson(ctx.res, 200, fileObject(env, ctx.req, record));
      },
    },
    {
      method: 'GET',
      path: '/public/:token/:filename',
      public: true,
      async handle(ctx) {
        const record = env.files.byPublicToken(ctx.params.token, env.clock.now());
        // The token is the secret; the name after it is for people (and survives a rename).
        if (!record) {
          throw new SandboxError(404, 'This public file URL does not exist, was revoked or has expired.');
        }
        // Inline only for passive types: an uploaded HTML page must not run on the sandbox's origin.
        await sendFileBytes(ctx.req, ctx.res, env.files, record, { contentType: record.contentType, disposition: publicDisposition(record.contentType) });
      },
    },
  ];
}
