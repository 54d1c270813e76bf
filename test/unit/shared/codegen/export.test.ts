import { describe, expect, it } from 'vitest';
import { canToolLoop, EXPORT_LANGS, exportCode } from '../../../../shared/codegen/export';
import { codeOf, requests, SECRET } from './fixtures';

describe('codegen/export', () => {
  describe('exportCode()', () => {
    it('never inlines a key and never emits a redacted header, in any language for any endpoint', () => {
      const withSecret = { ...requests.chat, headers: { ...requests.chat.headers, authorization: `Bearer ${SECRET}` } };
      for (const request of [...Object.values(requests), withSecret]) {
        for (const lang of EXPORT_LANGS) {
          const result = exportCode(request, { lang });
          if (!('code' in result)) continue;
          expect(result.code).not.toContain(SECRET);
          expect(result.code).not.toContain('***');
          expect(result.code).not.toContain('InferenceWorkbench');
          expect(result.code).toContain('WORKBENCH_API_KEY');
        }
      }
    });

    it('reads the key from another variable when asked', () => {
      for (const lang of EXPORT_LANGS) {
        const text = codeOf(exportCode(requests.messages, { lang, apiKeyEnv: 'MY_SERVICE_KEY' }));
        expect(text).toContain('MY_SERVICE_KEY');
        expect(text).not.toContain('WORKBENCH_API_KEY');
      }
    });

    it('names the shown key and the connection URL given, in every language, tool loop or not, upload or not', () => {
      const upload = { ...requests.chat, url: 'http://127.0.0.1:4000/v1/files', body: { multipart: [{ name: 'purpose', value: 'assistants' }, { name: 'file', filename: 'a.txt', contentType: 'text/plain', bytes: 1 }] } };
      for (const request of [requests.chat, requests.chatTools, requests.messages, upload]) {
        for (const lang of EXPORT_LANGS) {
          for (const toolLoop of [false, true]) {
            const result = exportCode(request, { lang, toolLoop, shownApiKey: 'sk-sandbox-xyz', baseUrl: 'http://127.0.0.1:4999' });
            if (!('code' in result)) continue;
            expect(result.code).toContain("export WORKBENCH_API_KEY='sk-sandbox-xyz'");
            expect(result.code).toContain('http://127.0.0.1:4999');
            expect(result.code).not.toContain('127.0.0.1:4000');
          }
        }
      }
    });

    it('offers only plain HTTP for an endpoint no SDK covers, and says why', () => {
      expect(exportCode(requests.models, { lang: 'python-sdk' })).toEqual({ unsupported: expect.stringMatching(/No official SDK/) });
      expect(exportCode(requests.models, { lang: 'typescript-sdk' })).toEqual({ unsupported: expect.stringMatching(/No official SDK/) });
      expect(codeOf(exportCode(requests.models, { lang: 'typescript' }))).toContain('"GET"');
    });

    it('refuses a tool loop in curl but writes the plain command when no loop is asked', () => {
      expect(exportCode(requests.chatTools, { lang: 'curl', toolLoop: true })).toEqual({ unsupported: expect.stringMatching(/needs a program/) });
      expect(codeOf(exportCode(requests.chatTools, { lang: 'curl' }))).toContain('--data-raw');
    });

    it('ignores toolLoop for a body without tools', () => {
      expect(exportCode(requests.chat, { lang: 'typescript', toolLoop: true })).toEqual(exportCode(requests.chat, { lang: 'typescript' }));
    });

    it('writes a tool loop with one stub per function tool and without streaming', () => {
      for (const lang of ['python', 'python-sdk', 'typescript', 'typescript-sdk'] as const) {
        const text = codeOf(exportCode(requests.chatTools, { lang, toolLoop: true }));
        expect(text).toMatch(/"get_weather": (\(args\) =>|lambda args:)/);
        expect(text).toMatch(/"lookup_time": (\(args\) =>|lambda args:)/);
        expect(text).toContain('tool_call_id');
        expect(text).not.toMatch(/"stream": (true|True)/);
        expect(text).toMatch(/Stopped after 10 turns/);
      }
    });

    it('continues a responses tool loop with previous_response_id and function_call_output items', () => {
      for (const lang of ['python', 'typescript', 'typescript-sdk', 'python-sdk'] as const) {
        const text = codeOf(exportCode(requests.responsesTools, { lang, toolLoop: true }));
        expect(text).toContain('previous_response_id');
        expect(text).toContain('"function_call_output"');
        expect(text).toContain('"get_weather"');
        expect(text).not.toContain('"web_search":');
      }
    });

    it('continues a messages tool loop with the assistant content and tool_result blocks', () => {
      for (const lang of ['python', 'typescript'] as const) {
        const text = codeOf(exportCode(requests.messagesTools, { lang, toolLoop: true }));
        expect(text).toContain('"tool_result"');
        expect(text).toContain('tool_use_id');
        expect(text).toMatch(/role": "assistant"|role: "assistant"/);
      }
    });
  });

  describe('canToolLoop()', () => {
    it('is true only for chat, responses and messages bodies that define tools', () => {
      expect([requests.chatTools, requests.responsesTools, requests.messagesTools, requests.chat, requests.completions].map(canToolLoop)).toEqual([
        true,
        true,
        true,
        false,
        false,
      ]);
    });
  });
});
