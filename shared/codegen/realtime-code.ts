/**
 * The one entry the realtime console calls for its "Code" tab: a session description
 * (realtime-session.ts) as a runnable program. Python and TypeScript only: curl cannot hold a
 * WebSocket, and the SDK tabs point to the plain programs (one loop, with a client secret).
 *
 *   realtimeSessionCode(session, 'typescript', { baseUrl, shownApiKey }) -> { code } | { unsupported }
 */
import type { ExportLang, ExportResult } from '../families/types';
import type { CodegenOptions } from './request-parts';
import { realtimePython } from './realtime-python';
import { realtimeCodeProblem, realtimeMessages, type RealtimeCodeSession } from './realtime-session';
import { realtimeTypeScript } from './realtime-typescript';

export type { RealtimeCodeSession } from './realtime-session';

/** Where the program connects when neither the options nor the environment say (the sandbox's usual port). */
const DEFAULT_ROOT = 'http://127.0.0.1:4010';

/** The service's root without a trailing /v1: `$WORKBENCH_BASE_URL` takes the same. */
function rootOf(url: string | undefined): string {
  return (url ?? DEFAULT_ROOT).trim().replace(/\/+$/, '').replace(/\/v\d+$/, '') || DEFAULT_ROOT;
}

export function realtimeSessionCode(session: RealtimeCodeSession, lang: ExportLang, opts: CodegenOptions = {}): ExportResult {
  if (lang === 'curl') return { unsupported: 'curl cannot hold a WebSocket conversation: choose Python or TypeScript.' };
  if (lang === 'python-sdk' || lang === 'typescript-sdk') return { unsupported: "A realtime session is exported as a plain WebSocket program with a client secret: choose Python or TypeScript." };
  const problem = realtimeCodeProblem(session);
  if (problem) return { unsupported: problem };
  const messages = realtimeMessages(session);
  const base = rootOf(opts.baseUrl);
  return { code: lang === 'python' ? realtimePython(messages, opts, base) : realtimeTypeScript(messages, opts, base) };
}
