/** Test helper: a sandbox on a free port with fetch helpers and a raw SSE frame parser. */
import { afterAll, beforeAll, expect } from 'vitest';
import { startSandbox, type SandboxOptions, type SandboxServer } from '../../../../main/sandbox/index';

export const KEY = 'sk-test-team-a-0001';
export const OTHER_KEY = 'sk-test-team-b-0002';

export interface Harness {
  sandbox: SandboxServer;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  chat(body: Record<string, unknown>, headers?: Record<string, string>): Promise<Response>;
}

/** Starts a sandbox with two teams and no pacing. */
export async function startHarness(options: SandboxOptions = {}): Promise<Harness> {
  const sandbox = await startSandbox({
    tokenDelayMs: 0,
    keys: [{ key: KEY, team: 'team-a' }, { key: OTHER_KEY, team: 'team-b' }],
    ...options,
  });
  const auth = { authorization: `Bearer ${KEY}` };
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${sandbox.url}${path}`, { headers: { ...auth, ...headers } });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${sandbox.url}${path}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  return {
    sandbox,
    get,
    post,
    chat: (body, headers) => post('/v1/chat/completions', { model: 'svc-4', messages: [{ role: 'user', content: 'Explain tide pools' }], ...body }, headers),
  };
}

export interface SseFrame {
  event?: string;
  data: string;
}

/** Splits a raw SSE body into frames, keeping `event:` lines so tests can assert there are none. */
export function parseSse(text: string): SseFrame[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const frame: SseFrame = { data: '' };
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) frame.event = line.slice(7);
        else if (line.startsWith('data: ')) frame.data += line.slice(6);
        else throw new Error(`unexpected SSE line: ${line}`);
      }
      return frame;
    });
}

/** The JSON payloads of a stream that ended with `data: [DONE]` (throws otherwise). */
export function streamPayloads(text: string): Array<Record<string, any>> {
  const frames = parseSse(text);
  if (frames.at(-1)?.data !== '[DONE]') throw new Error('stream did not end with [DONE]');
  return frames.slice(0, -1).map((f) => JSON.parse(f.data) as Record<string, any>);
}

/** How a streamed body ended: closed cleanly, or reset mid-stream (as a drop fault does). */
export interface StreamEnd {
  outcome: 'ended' | 'reset';
  /** Everything received before the end. */
  text: string;
}

/** Reads a streamed body to its end, keeping what arrived even when the connection is reset. */
export async function readToEnd(res: Response): Promise<StreamEnd> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { outcome: 'ended', text };
      text += decoder.decode(value);
    }
  } catch {
    return { outcome: 'reset', text };
  }
}

/**
 * A harness for a whole test file: started before its tests, its sandbox closed after them. The
 * object is filled in by the beforeAll, so use it only inside tests and hooks.
 */
export function useHarness(options: SandboxOptions = {}): Harness {
  const h = {} as Harness;
  beforeAll(async () => {
    Object.assign(h, await startHarness(options));
  });
  afterAll(() => h.sandbox?.close());
  return h;
}

/**
 * Requests to one JSON endpoint with `base` as the body's defaults: `answer` expects a 200 and
 * returns the body; `errorOf` returns the status and the error message of a refusal.
 */
export function endpoint<T>(h: Harness, path: string, base: Record<string, unknown>) {
  return {
    async answer(body: Record<string, unknown>): Promise<T> {
      const res = await h.post(path, { ...base, ...body });
      expect(res.status).toBe(200);
      return (await res.json()) as T;
    },
    async errorOf(body: Record<string, unknown>): Promise<{ status: number; error: string }> {
      const res = await h.post(path, { ...base, ...body });
      return { status: res.status, error: ((await res.json()) as { error: string }).error };
    },
  };
}
