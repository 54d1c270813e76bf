/**
 * Code export from the playground's own runs: a run made through the app's handlers (as the
 * Chat, Responses and Messages playgrounds make them, here against a profile pointing at a local
 * sandbox), its recorded request exported from the inspector's data, and the snippet run: it
 * prints the text the playground showed. The key is only in the environment, never in the code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportCode, type ExportLang } from '../../../shared/codegen/export';
import { choicesOf } from '../../../shared/text-output';
import type { RunRecord } from '../../../shared/contract/runs';
import { startSandbox, type SandboxServer } from '../../../main/sandbox/index';
import { startHarness, type Harness } from '../services/harness';
import { runText } from '../services/text-run-helper';
import { runSnippet, sseText } from './run-snippet';

const KEY = 'sk-playground-export-01';
let sandbox: SandboxServer;
let h: Harness;
let connectionId: string;

beforeAll(async () => {
  sandbox = await startSandbox({ tokenDelayMs: 0, keys: [KEY] });
  h = await startHarness();
  const profile = await h.app.handlers.connections.save({ name: 'Local sandbox', baseUrl: sandbox.url, apiKey: KEY }, { sessionId: 'test', signal: new AbortController().signal });
  connectionId = profile.id;
});
afterAll(async () => {
  await h.close();
  await sandbox.close();
});

async function exported(name: string, record: RunRecord, lang: ExportLang): Promise<string> {
  const result = exportCode(record.request, { lang });
  if (!('code' in result)) throw new Error(`${lang}: ${result.unsupported}`);
  expect(result.code).not.toContain(KEY);
  return (await runSnippet(`playground-${name}`, lang, result.code, { WORKBENCH_API_KEY: KEY })).stdout;
}

const cases = [
  {
    name: 'chat-stream',
    handler: () => h.app.handlers.chat.send,
    request: { model: 'svc-4', messages: [{ role: 'user', content: 'Describe a canal boat at night' }], stream: true, stream_options: { include_usage: true }, seed: 11 },
    delta: (e: any) => e.choices?.[0]?.delta?.content,
  },
  {
    name: 'responses-stream',
    handler: () => h.app.handlers.responses.create,
    request: { model: 'svc-4-fast', input: 'Describe a mountain hut in winter', stream: true },
    delta: (e: any) => (e.type === 'response.output_text.delta' ? e.delta : undefined),
  },
  {
    name: 'messages-stream',
    handler: () => h.app.handlers.messages.send,
    request: { model: 'svc-4', max_tokens: 300, stream: true, messages: [{ role: 'user', content: 'Describe a market square at noon' }] },
    delta: (e: any) => (e.type === 'content_block_delta' && e.delta?.type === 'text_delta' ? e.delta.text : undefined),
  },
];

describe('code exported from a playground run', () => {
  for (const c of cases) {
    it(`${c.name}: curl and TypeScript print the text the playground showed`, async () => {
      const { record } = await runText(c.handler() as never, { connectionId, request: c.request });
      expect(record.status).toBe('completed');
      const shown = choicesOf(record.endpoint, record.output)[0]!.content;
      expect(shown.length).toBeGreaterThan(20);
      expect(JSON.stringify(record.request)).not.toContain(KEY);

      expect(sseText(await exported(c.name, record, 'curl'), c.delta)).toBe(shown);
      expect((await exported(c.name, record, 'typescript')).trim()).toBe(shown.trim());
    });
  }
});
