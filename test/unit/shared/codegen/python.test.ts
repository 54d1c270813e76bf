import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { toPython } from '../../../../shared/codegen/python';
import { toPythonSdk } from '../../../../shared/codegen/python-sdk';
import { codeOf, requests } from './fixtures';

const sdk = (request: Parameters<typeof toPythonSdk>[0]): string => codeOf(toPythonSdk(request));

describe('codegen/python', () => {
  describe('toPython()', () => {
    it('uses only the standard library and reads the key from the environment', () => {
      const code = toPython(requests.chat);
      expect(code).toContain('import urllib.request');
      expect(code).not.toMatch(/^import requests/m);
      expect(code).toContain('"Bearer " + os.environ["WORKBENCH_API_KEY"]');
      expect(code).toContain('"x-svc-conv-id": "conv-7"');
      expect(code).toContain('"content": "say \\"hi\\""');
    });

    it('reads a stream line by line, printing deltas and stopping at [DONE]', () => {
      const code = toPython(requests.chatStream);
      expect(code).toContain('if payload == "[DONE]":');
      expect(code).toContain('print(text, end="", flush=True)');
      expect(code).toContain('"delta"');
    });

    it('picks the delta of each endpoint\'s stream', () => {
      const stream = (r: typeof requests.chat) => toPython({ ...r, body: { ...(r.body as object), stream: true } });
      expect(stream(requests.responses)).toContain('"response.output_text.delta"');
      expect(stream(requests.messages)).toContain('"content_block_delta"');
    });
  });
});

describe('codegen/python-sdk', () => {
  describe('toPythonSdk()', () => {
    it('builds an OpenAI client on <origin>/v1 with the key from the environment', () => {
      const code = sdk(requests.chat);
      expect(code).toContain('from openai import OpenAI');
      expect(code).toContain('api_key=os.environ["WORKBENCH_API_KEY"]');
      expect(code).toContain('base_url=(os.environ.get("WORKBENCH_BASE_URL") or "http://127.0.0.1:4000").rstrip("/") + "/v1"');
      expect(code).toContain('client.chat.completions.create(');
    });

    it('passes parameters the SDK does not name in extra_body', () => {
      const code = sdk(requests.chat);
      expect(code).toMatch(/extra_body=\{\s+"search_parameters": \{\s+"mode": "off",/);
      expect(code).toMatch(/\n {4}model="svc-4",/);
    });

    it('authenticates the Anthropic SDK with a Bearer token on the origin', () => {
      const code = sdk(requests.messages);
      expect(code).toContain('from anthropic import Anthropic');
      expect(code).toContain('auth_token=os.environ["WORKBENCH_API_KEY"]');
      expect(code).toContain('base_url=(os.environ.get("WORKBENCH_BASE_URL") or "http://127.0.0.1:4000").rstrip("/")');
      expect(code).toContain('client.messages.create(');
    });

    it('retrieves and deletes a stored response by the id in the URL', () => {
      expect(sdk(requests.responseGet)).toContain('client.responses.retrieve("resp-42")');
      expect(sdk(requests.responseDelete)).toContain('client.responses.delete("resp-42")');
    });

    it('iterates the SDK stream printing text deltas', () => {
      const code = sdk(requests.chatStream);
      expect(code).toContain('for event in stream:');
      expect(code).toContain('event.choices[0].delta.content');
      expect(code).toContain('stream=True');
    });
  });
});

describe('codegen/python (syntax)', () => {
  it('writes scripts Python compiles, for every endpoint, plain, streamed and as a tool loop, with and without the SDK', () => {
    const sources: string[] = [];
    for (const request of Object.values(requests)) {
      for (const toolLoop of [false, true]) {
        sources.push(toPython(request, { toolLoop }));
        const viaSdk = toPythonSdk(request, { toolLoop });
        if ('code' in viaSdk) sources.push(viaSdk.code);
        const streamed = { ...request, body: request.body && typeof request.body === 'object' ? { ...request.body, stream: true } : request.body };
        sources.push(toPython(streamed, { toolLoop }));
        const sdkStreamed = toPythonSdk(streamed, { toolLoop });
        if ('code' in sdkStreamed) sources.push(sdkStreamed.code);
      }
    }
    // One interpreter compiles them all (no imports run) and names any that fail.
    const script = `import json, sys\nfailed = []\nfor i, src in enumerate(json.load(sys.stdin)):\n    try:\n        compile(src, f"snippet{i}", "exec")\n    except SyntaxError as e:\n        failed.append(f"{i}: {e}")\nprint(json.dumps(failed))`;
    const out = execFileSync('python3', ['-c', script], { input: JSON.stringify(sources) }).toString();
    expect(sources.length).toBeGreaterThan(40);
    expect(JSON.parse(out)).toEqual([]);
  });
});
