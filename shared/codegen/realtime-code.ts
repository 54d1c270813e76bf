/**
 * The one entry the realtime console calls for its "Code" tab: the call's input (model, voice,
 * instructions, turn detection, formats, tools and saved replies) as a runnable program. Python
 * and TypeScript only: curl cannot hold a WebSocket, and the SDK tabs point to the plain programs
 * (one loop, with a client secret).
 *
 *   realtimeSessionCode(input, 'typescript', { baseUrl, shownApiKey, prompt?, audioFile? }) -> { code } | { unsupported }
 */
import type { ExportLang, ExportResult } from '../families/types';
import { RealtimeCallInputSchema, type RealtimeCallInputDraft } from '../realtime-call/input';
import type { CodegenOptions } from './request-parts';
import { realtimePython } from './realtime-python';
import { realtimeMessages, type RealtimeCodeExtras } from './realtime-session';
import { realtimeTypeScript } from './realtime-typescript';

export type { RealtimeCodeExtras } from './realtime-session';

/** Where the program connects when neither the options nor the environment say (the sandbox's usual port). */
const DEFAULT_ROOT = 'http://127.0.0.1:4010';

/** The service's root without a trailing /v1: `$WORKBENCH_BASE_URL` takes the same. */
function rootOf(url: string | undefined): string {
  return (url ?? DEFAULT_ROOT).trim().replace(/\/+$/, '').replace(/\/v\d+$/, '') || DEFAULT_ROOT;
}

/**
 * `input` is the call's input as the console starts a call with it (`live.start {kind: 'realtime'}`;
 * checked here with its schema, so a draft with defaults not yet applied is fine). A SIP call's
 * `callId`, microphone and output settings do not change the program: it always mints a secret,
 * streams a WAV and writes the answer to a file.
 */
export function realtimeSessionCode(input: RealtimeCallInputDraft, lang: ExportLang, opts: CodegenOptions & RealtimeCodeExtras = {}): ExportResult {
  if (lang === 'curl') return { unsupported: 'curl cannot hold a WebSocket conversation: choose Python or TypeScript.' };
  if (lang === 'python-sdk' || lang === 'typescript-sdk') return { unsupported: 'A realtime session is exported as a plain WebSocket program with a client secret: choose Python or TypeScript.' };
  const checked = RealtimeCallInputSchema.safeParse({ ...input, callId: undefined, auth: 'client-secret' });
  if (!checked.success) return { unsupported: `The session cannot be exported: ${checked.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}.` };
  const messages = realtimeMessages(checked.data, { prompt: opts.prompt, audioFile: opts.audioFile });
  const base = rootOf(opts.baseUrl);
  return { code: lang === 'python' ? realtimePython(messages, opts, base) : realtimeTypeScript(messages, opts, base) };
}
