/**
 * Resolves a URL path to a file of the built renderer, for both shells. A path can never leave
 * the renderer folder (no `..`, no encoded separators, no symlinks pointing out), and each file
 * gets its proper MIME type so `nosniff` holds.
 */
import { realpath, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.txt': 'text/plain; charset=utf-8',
};

/** MIME type by extension; unknown files are served as opaque bytes. */
export function mimeType(path: string): string {
  return MIME[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

export type StaticResolution =
  | { ok: true; path: string; contentType: string; isIndex: boolean }
  | { ok: false; status: 400 | 403 | 404 };

/**
 * Maps `pathname` (from a URL, still percent-encoded) to a file under `root`. `/` and unknown
 * extension-less paths (client-side routes) give index.html.
 */
export async function resolveStaticFile(root: string, pathname: string): Promise<StaticResolution> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return { ok: false, status: 400 };
  }
  if (!decoded.startsWith('/') || decoded.includes('\0') || decoded.includes('\\')) return { ok: false, status: 400 };
  const segments = decoded.split('/');
  if (segments.some((s) => s === '..' || s === '.')) return { ok: false, status: 403 };

  const base = resolve(root);
  const wantsIndex = decoded.endsWith('/') || extname(decoded) === '';
  const candidate = resolve(base, `.${decoded}`);
  if (candidate !== base && !candidate.startsWith(base + sep)) return { ok: false, status: 403 };

  const found = await existingFile(base, candidate);
  if (found) return { ok: true, path: found, contentType: mimeType(found), isIndex: found === resolve(base, 'index.html') };
  if (!wantsIndex) return { ok: false, status: 404 };
  const index = await existingFile(base, resolve(base, 'index.html'));
  if (!index) return { ok: false, status: 404 };
  return { ok: true, path: index, contentType: mimeType(index), isIndex: true };
}

/** The real path of a regular file inside `base`, or null (missing, a folder, or a symlink out). */
async function existingFile(base: string, path: string): Promise<string | null> {
  try {
    const real = await realpath(path);
    const realBase = await realpath(base);
    if (real !== realBase && !real.startsWith(realBase + sep)) return null;
    return (await stat(real)).isFile() ? path : null;
  } catch {
    return null;
  }
}

/** A compressed copy of a built file that the client accepts. */
export interface EncodedVariant {
  path: string;
  encoding: 'br' | 'gzip';
  size: number;
}

const VARIANTS = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

/**
 * The precompressed copy of `path` (written by the build, scripts/precompress.mjs) to send for
 * `acceptEncoding`, Brotli before gzip; null when the client takes neither or there is no copy.
 * A coding the client lists with `q=0` is refused.
 */
export async function precompressedVariant(path: string, acceptEncoding: string | undefined): Promise<EncodedVariant | null> {
  const accepted = acceptedEncodings(acceptEncoding ?? '');
  for (const { encoding, suffix } of VARIANTS) {
    if (!accepted.has(encoding)) continue;
    try {
      const info = await stat(path + suffix);
      if (info.isFile()) return { path: path + suffix, encoding, size: info.size };
    } catch {
      // no copy for this file (small, or not compressible): try the next coding
    }
  }
  return null;
}

function acceptedEncodings(header: string): Set<string> {
  const accepted = new Set<string>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name);
  }
  return accepted;
}
