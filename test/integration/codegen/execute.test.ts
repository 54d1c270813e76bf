/**
 * Code export, executed: for each text endpoint the sandbox serves, the generated curl, Python
 * (standard library) and TypeScript (fetch and official SDK) snippets run against the sandbox and
 * print the same text a direct request gets. The Python SDK snippets are not run: the `openai`
 * and `anthropic` Python packages are not installable here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportCode, type ExportLang } from '../../../shared/codegen/export';
import type { CapturedRequest } from '../../../shared/contract/runs';
import { startSandbox, type SandboxServer } from '../../../main/sandbox/index';
import { runSnippet, sseText } from './run-snippet';

const KEY = 'sk-codegen-exec-01';
let sandbox: SandboxServer;

beforeAll(async () => {
  sandbox = await startSandbox({ tokenDelayMs: 0, keys: [KEY] });
});
afterAll(() => sandbox.close());

/** How to read each endpoint's answer and stream, for the expected text. */
interface Reader {
  text(data: any): string;
  delta(event: any): string | undefined;
}

const chatReader: Reader = {
  text: (d) => d.choices[0].message.content,
  delta: (e) => e.choices?.[0]?.delta?.content,
};

const responsesReader: Reader = {
  text: (d) =>
    d.output
      .filter((i: any) => i.type === 'message')
      .flatMap((i: any) => i.content.filter((p: any) => p.type === 'output_text').map((p: any) => p.text))
      .join('\n'),
  delta: (e) => (e.type === 'response.output_text.delta' ? e.delta : undefined),
};

const messagesReader: Reader = {
  text: (d) => d.content.filter((b: any) => b.type === 'text').map((b: any) => b.text).join('\n'),
  delta: (e) => (e.type === 'content_block_delta' && e.delta?.type === 'text_delta' ? e.delta.text : undefined),
};

const completionsReader: Reader = {
  text: (d) => d.choices[0].text,
  delta: (e) => e.choices?.[0]?.text,
};

const completeReader: Reader = { text: (d) => d.completion, delta: (e) => e.completion };

function captured(path: string, body: Record<string, unknown>): CapturedRequest {
  return {
    method: 'POST',
    url: `${sandbox.url}${path}`,
    // As the recorder keeps them: the key redacted, transport headers present.
    headers: { accept: 'application/json', 'content-type': 'application/json', authorization: 'Bearer ***', 'user-agent': 'InferenceWorkbench/0.1' },
    body,
  };
}

/** The text the sandbox answers for the same body, asked directly without streaming. */
async function directText(path: string, body: Record<string, unknown>, reader: Reader): Promise<string> {
  const response = await fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, stream: false, stream_options: undefined }),
  });
  expect(response.status).toBe(200);
  return reader.text(await response.json());
}

async function generated(name: string, request: CapturedRequest, lang: ExportLang, toolLoop = false): Promise<string> {
  const result = exportCode(request, { lang, toolLoop });
  if (!('code' in result)) throw new Error(`${lang}: ${result.unsupported}`);
  return (await runSnippet(name, lang, result.code, { WORKBENCH_API_KEY: KEY })).stdout;
}

interface Case {
  name: string;
  path: string;
  body: Record<string, unknown>;
  reader: Reader;
  langs: ExportLang[];
}

const PROGRAMS: ExportLang[] = ['python', 'typescript', 'typescript-sdk'];

const cases: Case[] = [
  {
    name: 'chat',
    path: '/v1/chat/completions',
    body: { model: 'svc-4', messages: [{ role: 'user', content: 'Say "amber falcon crosses seventeen bridges"' }] },
    reader: chatReader,
    langs: ['curl', ...PROGRAMS],
  },
  {
    name: 'chat-stream',
    path: '/v1/chat/completions',
    body: {
      model: 'svc-4-fast',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'Describe a harbour at dawn' }],
    },
    reader: chatReader,
    langs: ['curl', ...PROGRAMS],
  },
  {
    name: 'responses',
    path: '/v1/responses',
    body: { model: 'svc-4', instructions: 'Answer plainly.', input: 'Say "copper lantern over quiet water"' },
    reader: responsesReader,
    langs: ['curl', ...PROGRAMS],
  },
  {
    name: 'responses-stream',
    path: '/v1/responses',
    body: { model: 'svc-4-fast', stream: true, input: 'Describe a lighthouse keeper\'s morning' },
    reader: responsesReader,
    langs: ['curl', ...PROGRAMS],
  },
  {
    name: 'messages',
    path: '/v1/messages',
    body: { model: 'svc-4', max_tokens: 300, system: 'Be brief.', messages: [{ role: 'user', content: 'Say "violet comet hums softly"' }] },
    reader: messagesReader,
    langs: ['curl', ...PROGRAMS],
  },
  {
    name: 'messages-stream',
    path: '/v1/messages',
    body: { model: 'svc-4-fast', max_tokens: 300, stream: true, messages: [{ role: 'user', content: 'Describe an orchard in autumn' }] },
    reader: messagesReader,
    langs: ['curl', ...PROGRAMS],
  },
  {
    name: 'completions',
    path: '/v1/completions',
    body: { model: 'svc-4', prompt: 'Say "granite owl counts nine stars"', max_tokens: 60 },
    reader: completionsReader,
    langs: ['curl', ...PROGRAMS],
  },
  {
    name: 'completions-stream',
    path: '/v1/completions',
    body: { model: 'svc-4', prompt: 'Describe a quiet railway station', max_tokens: 80, stream: true },
    reader: completionsReader,
    langs: ['curl', 'python', 'typescript', 'typescript-sdk'],
  },
  {
    name: 'complete',
    path: '/v1/complete',
    body: { model: 'svc-4', prompt: '\n\nHuman: Say "silver kettle sings twice"\n\nAssistant:', max_tokens_to_sample: 60 },
    reader: completeReader,
    langs: ['curl', ...PROGRAMS],
  },
];

describe('generated snippets against the sandbox', () => {
  for (const c of cases) {
    describe(c.name, () => {
      for (const lang of c.langs) {
        it(`${lang} prints the text the service answers`, async () => {
          const expected = await directText(c.path, c.body, c.reader);
          expect(expected.length).toBeGreaterThan(10);
          const out = await generated(c.name, captured(c.path, c.body), lang);
          if (lang !== 'curl') expect(out.trim()).toBe(expected.trim());
          else if (c.body.stream === true) expect(sseText(out, c.reader.delta)).toBe(expected);
          else expect(c.reader.text(JSON.parse(out))).toBe(expected);
        });
      }
    });
  }

  const weather = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
  const loops: { name: string; path: string; body: Record<string, unknown>; langs: ExportLang[] }[] = [
    {
      name: 'chat-tools',
      path: '/v1/chat/completions',
      body: {
        model: 'svc-4',
        stream: true,
        messages: [{ role: 'user', content: 'Use get_weather to check the weather in Lisbon' }],
        tools: [{ type: 'function', function: { name: 'get_weather', parameters: weather } }],
      },
      langs: PROGRAMS,
    },
    {
      name: 'responses-tools',
      path: '/v1/responses',
      body: {
        model: 'svc-4',
        instructions: 'Be brief.',
        input: 'Use get_weather to check the weather in Lisbon',
        tools: [{ type: 'function', name: 'get_weather', parameters: weather }],
      },
      langs: ['python', 'typescript'],
    },
    {
      name: 'messages-tools',
      path: '/v1/messages',
      body: {
        model: 'svc-4',
        max_tokens: 400,
        messages: [{ role: 'user', content: 'Use get_weather to check the weather in Lisbon' }],
        tools: [{ name: 'get_weather', input_schema: weather }],
      },
      langs: ['python', 'typescript-sdk'],
    },
  ];

  for (const loop of loops) {
    describe(loop.name, () => {
      for (const lang of loop.langs) {
        it(`${lang} runs the stub tool, sends its result back and prints the model's final answer`, async () => {
          const out = await generated(loop.name, captured(loop.path, loop.body), lang, true);
          const lines = out.trim().split('\n');
          expect(lines[0]).toMatch(/^\[tool\] get_weather\(\{"city": ?".+"\}\) -> .*stub: implement get_weather/);
          // The sandbox answers a tool result in words, quoting it: the loop got past the tool call.
          expect(lines.slice(1).join('\n')).toContain('The `get_weather` tool returned');
          expect(out).not.toContain('Stopped after');
        });
      }
    });
  }
});
