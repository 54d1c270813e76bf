import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { environmentHeader, headerEnvName, secretHeaders, shellUrl, splitRequestUrl } from '../../../../shared/codegen/environment';
import type { CapturedRequest } from '../../../../shared/contract/runs';

const at = (url: string, headers: Record<string, string> = {}): CapturedRequest => ({ method: 'POST', url, headers, body: null });

/** What sh makes of a generated word, with `env` as the whole environment. */
function shellWord(word: string, env: Record<string, string> = {}): string {
  return execFileSync('/bin/sh', ['-c', `printf '%s' ${word}`], { env }).toString();
}

describe('codegen/environment', () => {
  describe('splitRequestUrl()', () => {
    it('splits at the version segment, keeping a path prefix and the query in their halves', () => {
      expect(splitRequestUrl(at('http://127.0.0.1:4010/v1/chat/completions'))).toEqual({ base: 'http://127.0.0.1:4010', rest: '/v1/chat/completions' });
      expect(splitRequestUrl(at('https://gw.example.com/svc/v1/messages?beta=1'))).toEqual({ base: 'https://gw.example.com/svc', rest: '/v1/messages?beta=1' });
      expect(splitRequestUrl(at('https://gw.example.com/health'))).toEqual({ base: 'https://gw.example.com', rest: '/health' });
    });

    it('takes the connection URL given instead of the recorded root, with or without its /v1 and trailing slash', () => {
      for (const baseUrl of ['http://127.0.0.1:4011', 'http://127.0.0.1:4011/', 'http://127.0.0.1:4011/v1']) {
        expect(splitRequestUrl(at('http://127.0.0.1:39999/v1/responses'), { baseUrl })).toEqual({ base: 'http://127.0.0.1:4011', rest: '/v1/responses' });
      }
    });
  });

  describe('shellUrl()', () => {
    it('expands to the default, or to $WORKBENCH_BASE_URL when set (empty counts as unset)', () => {
      const word = shellUrl({ base: 'http://127.0.0.1:4010', rest: '/v1/chat/completions' });
      expect(shellWord(word)).toBe('http://127.0.0.1:4010/v1/chat/completions');
      expect(shellWord(word, { WORKBENCH_BASE_URL: 'https://other.example' })).toBe('https://other.example/v1/chat/completions');
      expect(shellWord(word, { WORKBENCH_BASE_URL: '' })).toBe('http://127.0.0.1:4010/v1/chat/completions');
    });

    it('passes characters the shell would expand through verbatim', () => {
      const word = shellUrl({ base: 'http://h/a}b$c"d`e\\f', rest: '/v1/x?q=$HOME&r=`id`"' });
      expect(shellWord(word, { HOME: '/root' })).toBe('http://h/a}b$c"d`e\\f/v1/x?q=$HOME&r=`id`"');
    });
  });

  describe('secretHeaders()', () => {
    it('reads redacted custom headers from their own variables, never the key or framing headers', () => {
      const headers = { authorization: 'Bearer ***', 'x-api-key': '***', 'X-Upstream-Token': '***', 'x-trace': 'abc', cookie: '[redacted]' };
      expect(secretHeaders(headers)).toEqual([
        ['X-Upstream-Token', 'WORKBENCH_HEADER_X_UPSTREAM_TOKEN'],
        ['cookie', 'WORKBENCH_HEADER_COOKIE'],
      ]);
      expect(headerEnvName('x-my-secret-2')).toBe('WORKBENCH_HEADER_X_MY_SECRET_2');
    });
  });

  describe('environmentHeader()', () => {
    it('says what to set for a remote connection without any value of a secret', () => {
      const request = at('https://api.example.com/v1/chat/completions', { 'x-upstream-token': '***' });
      expect(environmentHeader(request, {}, '#')).toEqual([
        '# POST https://api.example.com/v1/chat/completions',
        '# Set first:',
        '#   export WORKBENCH_API_KEY=<your API key>',
        '#   export WORKBENCH_HEADER_X_UPSTREAM_TOKEN=<the value of x-upstream-token>',
        "# Optional: WORKBENCH_BASE_URL, the service's root URL without /v1 (default https://api.example.com).",
      ]);
    });

    it('shows the built-in sandbox key, quoted for the shell, and the sandbox URL now', () => {
      const lines = environmentHeader(at('http://127.0.0.1:39999/v1/messages'), { shownApiKey: 'sk-sandbox-abc', baseUrl: 'http://127.0.0.1:4010', apiKeyEnv: 'MY_KEY' }, '//');
      expect(lines).toEqual([
        '// POST http://127.0.0.1:4010/v1/messages',
        '// Set first (the built-in sandbox: local, synthetic outputs, so its key is no secret):',
        "//   export MY_KEY='sk-sandbox-abc'",
        "// Optional: WORKBENCH_BASE_URL, the service's root URL without /v1 (default http://127.0.0.1:4010).",
      ]);
    });
  });
});
