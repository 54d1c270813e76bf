/** Test helper: the video endpoints through a harness (create, poll, clock), and small input files. */
import { PNG } from 'pngjs';
import { expect } from 'vitest';
import type { VideoResult } from '../../../../../shared/wire/videos';
import type { Harness } from '../harness';

export const GENERATIONS = '/v1/videos/generations';
export const EDITS = '/v1/videos/edits';
export const EXTENSIONS = '/v1/videos/extensions';

/** Makes a valid create skip its encode (it fails later): for tests about acceptance only. */
export const NO_ENCODE = { 'x-sandbox-video-fail': 'internal_error' };

/** Small and fast to encode: 1 s of 480p. */
export const SMALL = { duration: 1, resolution: '480p' };

export async function create(h: Harness, path: string, body: unknown, headers: Record<string, string> = {}): Promise<string> {
  const res = await h.post(path, body, headers);
  const json = (await res.json()) as { request_id?: string; error?: string };
  expect(res.status, json.error).toBe(200);
  expect(Object.keys(json)).toEqual(['request_id']);
  return json.request_id as string;
}

/** The status and message of a refused create. */
export async function refusal(h: Harness, path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; error: string }> {
  const res = await h.post(path, body, headers);
  return { status: res.status, error: ((await res.json()) as { error: string }).error };
}

export async function poll(h: Harness, id: string, key?: string): Promise<VideoResult> {
  const res = await h.get(`/v1/videos/${id}`, key ? { authorization: `Bearer ${key}` } : {});
  expect(res.status).toBe(200);
  return (await res.json()) as VideoResult;
}

export async function advance(h: Harness, seconds: number): Promise<void> {
  expect((await h.post('/sandbox/clock/advance', { seconds })).status).toBe(200);
}

/** Moves the clock past the job's time and waits (real time) for its encode; the final result. */
export async function finish(h: Harness, id: string, timeoutMs = 20_000): Promise<VideoResult> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await poll(h, id);
    if (r.status !== 'pending') return r;
    if (Date.now() > until) throw new Error(`video ${id} still pending: ${JSON.stringify(r)}`);
    if ((r.progress ?? 0) < 99) await advance(h, 30);
    else await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function download(url: string, headers: Record<string, string> = {}): Promise<{ status: number; bytes: Uint8Array; headers: Headers }> {
  const res = await fetch(url, { headers });
  return { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()), headers: res.headers };
}

/** A PNG of one colour. */
export function pngBytes(width: number, height: number, rgb: [number, number, number]): Buffer {
  const png = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) png.data.set([...rgb, 255], i * 4);
  return PNG.sync.write(png);
}

export function dataUrl(mime: string, bytes: Uint8Array): string {
  return `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;
}
