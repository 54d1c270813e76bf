/**
 * The comment block atop an exported realtime program: what it does, what it connects to and the
 * variables to set (the built-in sandbox's key shown, as environment.ts does for requests).
 */
import { BASE_URL_ENV } from './environment';
import { apiKeyEnv, type CodegenOptions } from './request-parts';
import type { RealtimeMessages } from './realtime-session';
import { shellQuote } from './shell-quote';

export function headerLines(m: RealtimeMessages, opts: CodegenOptions, base: string, comment: '#' | '//'): string[] {
  const env = apiKeyEnv(opts);
  const lines = [
    `Realtime session over the WebSocket ${base.replace(/^http/i, 'ws')}${m.socketPath}`,
    'It mints a client secret with the API key, connects with it, sends session.update, then a text turn',
    `(the transcript printed) and an audio turn (${m.audioFile} streamed in 20 ms chunks; ${m.manual ? 'the program commits the turn' : "the server's VAD ends the turn"})`,
    `whose spoken answer is written to answer.wav.${m.tools.length > 0 ? ' Function calls are answered by TOOLS (saved replies or stubs).' : ''}`,
  ];
  if (opts.shownApiKey !== undefined) {
    lines.push('Set first (the built-in sandbox: local, synthetic outputs, so its key is no secret):');
    lines.push(`  export ${env}=${shellQuote(opts.shownApiKey)}`);
  } else {
    lines.push('Set first:', `  export ${env}=<your API key>`);
  }
  lines.push(`Optional: ${BASE_URL_ENV}, the service's root URL without /v1 (default ${base}).`);
  return lines.map((line) => `${comment} ${line}`);
}
