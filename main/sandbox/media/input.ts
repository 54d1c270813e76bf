/**
 * Media inputs of the image and video endpoints (`image`, `images[i]`, `reference_images[i]`,
 * `video`): an object `{url | image_url | file_id, type?}` resolved to bytes whose real type (by
 * magic bytes, never the declared one alone) is one the field accepts.
 *
 * - `url` (alias `image_url`, a string or `{url}`): a base64 data URL, this sandbox's own public
 *   file URL (`/public/<token>/<name>`) or media URL (`/media/...`), read in-process without HTTP
 *   (so an expired one says so), or any other http(s) URL, fetched with a timeout and a size cap.
 * - `file_id`: a complete upload of the team in the FileStore.
 *
 * Every refusal is a SandboxError 400 whose message starts with the exact field path
 * (`images[1].file_id`), except a wrong JSON type, which is a 422 like the text endpoints'.
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { formatBytes } from '../../../shared/byte-size';
import { isObject } from '../../../shared/is-object';
import { SandboxError } from '../errors';
import { fileGoneMessage, type FileStore } from '../files/store';
import { isLoopbackHostname } from '../host';
import { sniffMime } from './image-codec';

/** What the sandbox's own `/media/...` URLs hold (the images store; video adds its own). */
export type OwnMediaLookup = { state: 'found'; bytes: Uint8Array; mime: string } | { state: 'expired' } | { state: 'unknown' };

export interface InputContext {
  files: FileStore;
  team: string;
  nowMs: number;
  /** True for URLs that point at this sandbox (see ownUrlMatcher). */
  isOwnUrl: (url: URL) => boolean;
  /** Resolves a `/media/...` path of this sandbox; absent = no media is served. */
  ownMedia?: (pathname: string) => OwnMediaLookup;
  /** Remote fetches give up after this long (default 10 s). */
  fetchTimeoutMs?: number;
  /** Replaceable for tests; default the global fetch. */
  fetch?: typeof fetch;
}

export interface InputSpec {
  /** The field path used in messages: `image`, `images[1]`, `video`. */
  field: string;
  /** Media types accepted (checked against the sniffed type), e.g. IMAGE_INPUT_MIME_TYPES or ['video/mp4']. */
  accept: readonly string[];
  /** Largest input in bytes. */
  maxBytes: number;
  /** Accepted values of the optional `type` member (default `image_url`). */
  types?: readonly string[];
}

export interface ResolvedInput {
  bytes: Uint8Array;
  /** The sniffed type, one of `accept`. */
  mime: string;
  source: 'data-url' | 'sandbox-url' | 'remote-url' | 'file' | 'upload';
  /** The exact field path the bytes came from (`images[1].file_id`), for later messages about them. */
  at: string;
}

/** A file part of a multipart request standing where an input object would be (the OpenAI SDK's `image` upload). */
export class UploadedPart {
  constructor(
    readonly bytes: Uint8Array,
    readonly filename: string,
    readonly contentType: string,
  ) {}
}

const bad = (message: string): SandboxError => new SandboxError(400, message);

/** Human names of media types for messages ("JPEG, PNG or WebP"). */
function kindList(accept: readonly string[]): string {
  const names = accept.map((m) => ({ 'image/jpeg': 'JPEG', 'image/png': 'PNG', 'image/webp': 'WebP', 'video/mp4': 'MP4' })[m] ?? m);
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

const mb = (bytes: number): string => formatBytes(Math.round(bytes));

/** The object's reference: which member carries it and its value. Throws naming the field. */
function reference(value: unknown, spec: InputSpec): { member: 'url' | 'image_url' | 'file_id'; value: string } {
  const f = spec.field;
  if (!isObject(value)) throw new SandboxError(422, `${f} must be an object: {"url": "..."} (an https or base64 data URL) or {"file_id": "..."}`);
  const known = ['url', 'image_url', 'file_id', 'type'];
  const extra = Object.keys(value).find((k) => !known.includes(k));
  if (extra !== undefined) throw bad(`${f}.${extra} is not a field of ${f}; give url (or image_url) or file_id, and optionally type`);
  const types = spec.types ?? ['image_url'];
  if (value.type !== undefined && value.type !== null && !types.includes(value.type as string)) {
    throw bad(`${f}.type must be ${types.map((t) => `"${t}"`).join(' or ')}; got ${JSON.stringify(value.type)}`);
  }
  let imageUrl = value.image_url;
  // The chat-style `{image_url: {url}}` is accepted as well as the plain string.
  if (isObject(imageUrl)) imageUrl = imageUrl.url;
  const given = (['url', 'image_url', 'file_id'] as const).filter((k) => value[k] !== undefined && value[k] !== null);
  if (given.length === 0) throw bad(`${f} needs url (or its alias image_url) or file_id`);
  if (given.includes('file_id') && given.length > 1) throw bad(`${f}.url and ${f}.file_id are mutually exclusive; give one of them`);
  if (given.length > 1) throw bad(`${f}.url and ${f}.image_url are the same field (image_url is an alias); give one of them`);
  const member = given[0];
  const raw = member === 'image_url' ? imageUrl : value[member];
  if (typeof raw !== 'string') throw new SandboxError(422, `${f}.${member} must be a string`);
  if (raw.trim() === '') throw bad(`${f}.${member} must not be empty`);
  return { member, value: raw };
}

/** Resolves one input object to checked bytes. */
export async function resolveInput(value: unknown, spec: InputSpec, ctx: InputContext): Promise<ResolvedInput> {
  if (value instanceof UploadedPart) return checkBytes({ bytes: value.bytes, source: 'upload' }, spec.field, spec);
  const ref = reference(value, spec);
  const at = `${spec.field}.${ref.member}`;
  let got: { bytes: Uint8Array; source: ResolvedInput['source'] };
  if (ref.member === 'file_id') got = { bytes: await fromFile(ref.value, at, spec, ctx), source: 'file' };
  else got = await fromUrl(ref.value, at, spec, ctx);
  return checkBytes(got, at, spec);
}

/** Size and real type of the bytes behind `at`. */
function checkBytes(got: { bytes: Uint8Array; source: ResolvedInput['source'] }, at: string, spec: InputSpec): ResolvedInput {
  if (got.bytes.length === 0) throw bad(`${at} is empty (0 bytes); it must be a ${kindList(spec.accept)} file`);
  if (got.bytes.length > spec.maxBytes) throw bad(`${at} is ${mb(got.bytes.length)}; inputs may be at most ${mb(spec.maxBytes)}`);
  const mime = sniffMime(got.bytes);
  if (mime === null || !spec.accept.includes(mime)) {
    throw bad(`${at} must be a ${kindList(spec.accept)} file; its bytes are ${mime ?? 'not a recognised media type'}`);
  }
  return { bytes: got.bytes, mime, source: got.source, at };
}

async function fromFile(id: string, at: string, spec: InputSpec, ctx: InputContext): Promise<Uint8Array> {
  const lookup = ctx.files.lookup(id, ctx.team, ctx.nowMs);
  if (lookup.state !== 'found') throw bad(`${at}: ${fileGoneMessage(id, lookup.state)}`);
  if (lookup.record.bytes > spec.maxBytes) throw bad(`${at} is ${mb(lookup.record.bytes)}; inputs may be at most ${mb(spec.maxBytes)}`);
  try {
    return await readFile(ctx.files.pathOf(id));
  } catch {
    throw bad(`${at}: File ${id} is no longer readable (it was removed while the request was read)`);
  }
}

async function fromUrl(text: string, at: string, spec: InputSpec, ctx: InputContext): Promise<{ bytes: Uint8Array; source: ResolvedInput['source'] }> {
  if (/^data:/i.test(text)) return { bytes: fromDataUrl(text, at, spec), source: 'data-url' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw bad(`${at} must be an http(s) URL or a base64 data URL (data:image/png;base64,...); got ${JSON.stringify(text.slice(0, 80))}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw bad(`${at} must be an http(s) URL or a base64 data URL; ${url.protocol} URLs are not fetched`);
  if (ctx.isOwnUrl(url)) return { bytes: await fromOwnUrl(url, at, ctx), source: 'sandbox-url' };
  return { bytes: await fetchRemote(url, at, spec, ctx), source: 'remote-url' };
}

/** `data:[<type>][;base64],<data>`; the declared type is ignored (the bytes are sniffed). */
function fromDataUrl(text: string, at: string, spec: InputSpec): Uint8Array {
  const comma = text.indexOf(',');
  if (comma < 0) throw bad(`${at} is a data URL without a comma before its data`);
  const meta = text.slice(5, comma);
  const data = text.slice(comma + 1);
  if (!/;base64$/i.test(meta)) return new Uint8Array(Buffer.from(decodeURIComponent(data), 'latin1'));
  const b64 = data.replace(/\s+/g, '');
  // Checked before decoding so a huge data URL does not allocate its bytes first.
  if (Math.floor((b64.length * 3) / 4) > spec.maxBytes + 2) throw bad(`${at} is about ${mb((b64.length * 3) / 4)}; inputs may be at most ${mb(spec.maxBytes)}`);
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(b64)) throw bad(`${at} is a data URL whose base64 data has characters outside the base64 alphabet`);
  return new Uint8Array(Buffer.from(b64, 'base64'));
}

async function fromOwnUrl(url: URL, at: string, ctx: InputContext): Promise<Uint8Array> {
  const pub = /^\/public\/([^/]+)\/[^/]+$/.exec(url.pathname);
  if (pub) {
    const record = ctx.files.byPublicToken(decodeURIComponent(pub[1]), ctx.nowMs);
    if (!record) throw bad(`${at} is a public file URL of this sandbox that does not exist, was revoked or has expired`);
    return readFile(ctx.files.pathOf(record.id)).catch(() => {
      throw bad(`${at} is a public file URL of this sandbox whose file is gone`);
    });
  }
  if (url.pathname.startsWith('/media/') && ctx.ownMedia) {
    const media = ctx.ownMedia(url.pathname);
    if (media.state === 'found') return media.bytes;
    throw bad(`${at} is a media URL of this sandbox that ${media.state === 'expired' ? 'has expired' : 'does not exist'}; generate the input again or upload it as a file`);
  }
  throw bad(`${at} points at this sandbox but not at a public file (/public/...) or media (/media/...) URL`);
}

async function fetchRemote(url: URL, at: string, spec: InputSpec, ctx: InputContext): Promise<Uint8Array> {
  const timeoutMs = ctx.fetchTimeoutMs ?? 10_000;
  const doFetch = ctx.fetch ?? fetch;
  let res: Response;
  try {
    res = await doFetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
  } catch (err) {
    const why = (err as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : ((err as { cause?: Error }).cause?.message ?? (err as Error).message);
    throw bad(`${at} could not be fetched from ${url.host}: ${why}`);
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw bad(`${at} could not be fetched: ${url.host} answered HTTP ${res.status}`);
  }
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > spec.maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw bad(`${at} is ${mb(declared)}; inputs may be at most ${mb(spec.maxBytes)}`);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of res.body ?? []) {
      total += chunk.byteLength;
      if (total > spec.maxBytes) {
        await res.body?.cancel().catch(() => undefined);
        throw bad(`${at} is over ${mb(spec.maxBytes)}, the most an input may be`);
      }
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof SandboxError) throw err;
    throw bad(`${at} could not be read from ${url.host}: ${(err as Error).message}`);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * Which URLs are this sandbox's own: any loopback name (`localhost`, `127.x.x.x`, `[::1]`) with the
 * port this request arrived on. (The Host a client used is always one of those: host.ts refuses
 * any other before routing.)
 */
export function ownUrlMatcher(req: IncomingMessage): (url: URL) => boolean {
  const port = req.socket.localPort;
  return (url) => {
    const urlPort = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    return isLoopbackHostname(url.hostname) && urlPort === port;
  };
}
