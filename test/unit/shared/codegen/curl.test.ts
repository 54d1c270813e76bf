import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { toCurl } from '../../../../shared/codegen/curl';
import type { CapturedRequest } from '../../../../shared/contract/runs';

const request: CapturedRequest = {
  method: 'post',
  url: 'https://api.example.com/v1/chat/completions',
  headers: { 'Content-Type': 'application/json', Authorization: 'Bearer sk-secret-123', 'x-svc-conv-id': "it's-mine" },
  body: { model: 'svc-4', messages: [{ role: 'user', content: `She said "hi" and it's $HOME \`pwd\` \\n` }] },
};

/** Runs the generated command through sh with `curl` replaced by a function that prints its args. */
function argvOf(command: string, env: Record<string, string> = {}): string[] {
  const script = `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; }\n${command}`;
  const out = execFileSync('/bin/sh', ['-c', script], { env: { PATH: process.env.PATH ?? '', ...env } }).toString();
  return out.split('\0').slice(0, -1);
}

describe('codegen/curl', () => {
  describe('toCurl()', () => {
    it('never inlines the key and reads it from $WORKBENCH_API_KEY when run', () => {
      const cmd = toCurl(request);
      expect(cmd).not.toContain('sk-secret-123');
      expect(argvOf(cmd, { WORKBENCH_API_KEY: 'from-env' })).toContain('Authorization: Bearer from-env');
    });

    it('quotes bodies with quotes, dollars and backticks so the shell passes them verbatim', () => {
      const argv = argvOf(toCurl(request));
      const body = argv[argv.indexOf('--data-raw') + 1]!;
      expect(JSON.parse(body)).toEqual(request.body);
      expect(argv.slice(0, 3)).toEqual(['-X', 'POST', 'https://api.example.com/v1/chat/completions']);
      expect(argv).toContain("x-svc-conv-id: it's-mine");
    });

    it('uses another variable name when asked, and refuses names the shell would misread', () => {
      expect(argvOf(toCurl(request, { apiKeyEnv: 'MY_KEY' }), { MY_KEY: 'k2' })).toContain('Authorization: Bearer k2');
      expect(() => toCurl(request, { apiKeyEnv: 'X; rm -rf /' })).toThrow(/invalid environment variable/);
    });

    it('omits --data-raw for a request without a body', () => {
      const argv = argvOf(toCurl({ method: 'GET', url: 'https://api.example.com/v1/models', headers: {}, body: null }));
      expect(argv).toEqual(['-X', 'GET', 'https://api.example.com/v1/models', '-sS', '-H', 'Authorization: Bearer ']);
    });
  });
});
