import { describe, expect, it } from 'vitest';
import { toPython } from '../../../../shared/codegen/python';
import { toTypeScript } from '../../../../shared/codegen/typescript';
import type { CapturedRequest } from '../../../../shared/contract/runs';

const request: CapturedRequest = {
  method: 'POST',
  url: 'https://api.example.com/v1/chat/completions',
  headers: { 'content-type': 'application/json', authorization: 'Bearer sk-secret-123' },
  body: { model: 'svc-4', messages: [{ role: 'user', content: 'say "hi"' }] },
};

describe('codegen/python', () => {
  describe('toPython()', () => {
    it('reads the key from the environment and embeds the body as JSON', () => {
      const code = toPython(request);
      expect(code).not.toContain('sk-secret-123');
      expect(code).toContain('os.environ["WORKBENCH_API_KEY"]');
      const literal = /json\.loads\((".*")\)/.exec(code)![1]!;
      expect(JSON.parse(JSON.parse(literal))).toEqual(request.body);
    });
  });
});

describe('codegen/typescript', () => {
  describe('toTypeScript()', () => {
    it('reads the key from process.env and never inlines it', () => {
      const code = toTypeScript(request);
      expect(code).not.toContain('sk-secret-123');
      expect(code).toContain('process.env["WORKBENCH_API_KEY"]');
      expect(code).toContain('"say \\"hi\\""');
    });
  });
});
