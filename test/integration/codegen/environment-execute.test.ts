/**
 * Exported code run with the variables its header names: the service's root URL comes from
 * $WORKBENCH_BASE_URL (the recorded address is dead here), and a custom header the recorder
 * redacted is sent from its own variable. A small loopback service echoes the path and header it
 * received as the answer's text. The Python SDK snippet runs only where the `openai` /
 * `anthropic` Python packages are installed (they are not installable here).
 */
import { execFileSync } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportCode, type ExportLang } from '../../../shared/codegen/export';
import type { CapturedRequest } from '../../../shared/contract/runs';
import { runSnippet } from './run-snippet';

let server: Server;
let url: string;

/** What the echo answers: the path it was asked on, the key it got and the custom header's value. */
function echoText(req: IncomingMessage): string {
  return `${req.url} ${req.headers.authorization} ${req.headers['x-upstream-token']}`;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const text = echoText(req);
      const body = req.url?.endsWith('/messages')
        ? { id: 'msg_1', type: 'message', role: 'assistant', model: 'svc-4', content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } }
        : { id: 'c1', object: 'chat.completion', created: 0, model: 'svc-4', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }] };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

/** Recorded on a connection at a port nothing listens on now, with a secret-looking custom header. */
function recorded(path: string, body: Record<string, unknown>): CapturedRequest {
  return {
    method: 'POST',
    url: `http://127.0.0.1:9/gateway${path}`,
    headers: { 'content-type': 'application/json', authorization: 'Bearer ***', 'x-upstream-token': '***', 'x-trace': 't-1' },
    body,
  };
}

const hasPythonSdks = (() => {
  try {
    execFileSync('python3', ['-c', 'import openai, anthropic'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const LANGS: ExportLang[] = ['curl', 'python', 'typescript', 'typescript-sdk', ...(hasPythonSdks ? (['python-sdk'] as const) : [])];

const ENV = { WORKBENCH_API_KEY: 'k-env', WORKBENCH_HEADER_X_UPSTREAM_TOKEN: 'tok-from-env' };

describe('code export and its environment', () => {
  for (const lang of LANGS) {
    it(`${lang}: sends to $WORKBENCH_BASE_URL, with the key and the redacted header's value from the environment`, async () => {
      const result = exportCode(recorded('/v1/chat/completions', { model: 'svc-4', messages: [{ role: 'user', content: 'hi' }] }), { lang });
      if (!('code' in result)) throw new Error(result.unsupported);
      expect(result.code).toContain('export WORKBENCH_HEADER_X_UPSTREAM_TOKEN=<the value of x-upstream-token>');
      const { stdout } = await runSnippet(`env-chat`, lang, result.code, { ...ENV, WORKBENCH_BASE_URL: `${url}/gateway` });
      const text = lang === 'curl' ? JSON.parse(stdout).choices[0].message.content : stdout.trim();
      expect(text).toBe('/gateway/v1/chat/completions Bearer k-env tok-from-env');
    });
  }

  it('typescript-sdk for Messages: the Anthropic SDK is given the root, and appends /v1 itself', async () => {
    const result = exportCode(recorded('/v1/messages', { model: 'svc-4', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }), { lang: 'typescript-sdk' });
    if (!('code' in result)) throw new Error(result.unsupported);
    const { stdout } = await runSnippet('env-messages', 'typescript-sdk', result.code, { ...ENV, WORKBENCH_BASE_URL: url });
    expect(stdout.trim()).toBe('/v1/messages Bearer k-env tok-from-env');
  });

  it('curl without $WORKBENCH_BASE_URL goes to the connection URL it was given', async () => {
    const result = exportCode(recorded('/v1/chat/completions', { model: 'svc-4', messages: [] }), { lang: 'curl', baseUrl: `${url}/v1` });
    if (!('code' in result)) throw new Error(result.unsupported);
    const { stdout } = await runSnippet('env-default', 'curl', result.code, ENV);
    expect(JSON.parse(stdout).choices[0].message.content).toBe('/v1/chat/completions Bearer k-env tok-from-env');
  });
});
