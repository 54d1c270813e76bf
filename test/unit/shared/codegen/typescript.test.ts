import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { toTypeScript } from '../../../../shared/codegen/typescript';
import { toTypeScriptSdk } from '../../../../shared/codegen/typescript-sdk';
import { codeOf, requests } from './fixtures';

const sdk = (request: Parameters<typeof toTypeScriptSdk>[0]): string => codeOf(toTypeScriptSdk(request));

describe('codegen/typescript', () => {
  describe('toTypeScript()', () => {
    it('reads the key from process.env and embeds the body as a literal', () => {
      const code = toTypeScript(requests.chat);
      expect(code).toContain('process.env["WORKBENCH_API_KEY"]');
      expect(code).toContain('"content": "say \\"hi\\""');
      expect(code).toContain('body: JSON.stringify(body)');
    });

    it('splits the SSE body into frames and stops at [DONE]', () => {
      const code = toTypeScript(requests.chatStream);
      expect(code).toContain('if (data === "[DONE]") break read;');
      expect(code).toContain('event.choices?.[0]?.delta?.content');
      expect(code).toContain('process.stdout.write(text)');
    });

    it('sends a GET without a body', () => {
      const code = toTypeScript(requests.responseGet);
      expect(code).toContain('await fetch(url, { method: "GET", headers })');
      expect(code).not.toContain('const body');
    });
  });
});

describe('codegen/typescript-sdk', () => {
  describe('toTypeScriptSdk()', () => {
    it('uses the openai SDK on <origin>/v1 for chat, responses and completions', () => {
      for (const [request, method] of [
        [requests.chat, 'client.chat.completions.create('],
        [requests.responses, 'client.responses.create('],
        [requests.compact, 'client.responses.compact('],
        [requests.completions, 'client.completions.create('],
      ] as const) {
        const code = sdk(request);
        expect(code).toContain('import OpenAI from "openai";');
        expect(code).toContain('baseURL: (process.env["WORKBENCH_BASE_URL"] || "http://127.0.0.1:4000").replace(/\\/+$/, "") + "/v1"');
        expect(code).toContain(method);
      }
    });

    it('uses the Anthropic SDK with a Bearer token for messages, and its generic post for complete', () => {
      const code = sdk(requests.messages);
      expect(code).toContain('import Anthropic from "@anthropic-ai/sdk";');
      expect(code).toContain('authToken: process.env["WORKBENCH_API_KEY"]');
      expect(code).toContain('apiKey: null');
      expect(code).toContain('baseURL: (process.env["WORKBENCH_BASE_URL"] || "http://127.0.0.1:4000").replace(/\\/+$/, "")');
      expect(sdk(requests.complete)).toContain('client.post("/v1/complete", { body: {');
    });

    it('passes extra request headers as default headers', () => {
      expect(sdk(requests.chat)).toMatch(/defaultHeaders: \{\n\s+"x-svc-conv-id": "conv-7",/);
    });

    it('iterates the stream with for await', () => {
      const code = sdk(requests.chatStream);
      expect(code).toContain('for await (const event of stream');
      expect(code).toContain('"stream": true');
    });
  });
});

describe('codegen/typescript (syntax)', () => {
  it('writes programs that parse, for every endpoint, plain, streamed and as a tool loop, with and without the SDK', () => {
    let checked = 0;
    for (const request of Object.values(requests)) {
      for (const toolLoop of [false, true]) {
        const streamed = { ...request, body: request.body && typeof request.body === 'object' ? { ...request.body, stream: true } : request.body };
        for (const r of [request, streamed]) {
          const viaSdk = toTypeScriptSdk(r, { toolLoop });
          for (const source of [toTypeScript(r, { toolLoop }), 'code' in viaSdk ? viaSdk.code : null]) {
            if (source === null) continue;
            const { diagnostics } = ts.transpileModule(source, { reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
            expect(diagnostics?.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')) ?? []).toEqual([]);
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
  });
});
