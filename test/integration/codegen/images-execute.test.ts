/**
 * Code export of image requests, executed: the Python (standard library) and TypeScript (fetch,
 * and the official openai SDK) snippets of a recorded generation and edit each send the recorded
 * JSON to a small fake of the Images API and save every image it answers, from a URL and from
 * base64. The Python SDK snippet is not run: the `openai` Python package is not installable here.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeBytes } from '../../../main/services/media-probe';
import { exportCode, type ExportLang } from '../../../shared/codegen/export';
import type { CapturedRequest } from '../../../shared/contract/runs';
import { sendJson, startServer, type LocalServer, type ReceivedRequest } from '../../unit/main/api/local-server';
import { jpegOf, pngOf } from '../../unit/main/services/media-fixtures';
import { runSnippet } from './run-snippet';

const KEY = 'sk-codegen-images-01';
let server: LocalServer;

beforeAll(async () => {
  server = await startServer((req, res) => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(pngOf(33, 22));
      return;
    }
    if (req.headers.authorization !== `Bearer ${KEY}`) return sendJson(res, 401, { error: 'bad key' });
    const body = JSON.parse(req.body) as { n?: number; response_format?: string };
    const data = Array.from({ length: body.n ?? 1 }, (_, i) =>
      // base64 answers are JPEG with no mime_type: the snippet names the file by its bytes, not ".png".
      body.response_format === 'b64_json' ? { b64_json: jpegOf(40 + i, 30).toString('base64') } : { url: `${server.baseUrl}/cdn/${i}.png`, mime_type: 'image/png', revised_prompt: 'a revised heron' },
    );
    sendJson(res, 200, { data, usage: { cost_in_usd_ticks: 1400000000 } });
  });
});
afterAll(async () => {
  await server.close();
});

function recorded(path: string, body: Record<string, unknown>): CapturedRequest {
  return {
    method: 'POST',
    url: `${server.baseUrl}${path}`,
    headers: { accept: 'application/json', 'content-type': 'application/json', authorization: 'Bearer ***', 'user-agent': 'InferenceWorkbench/0.1' },
    body,
  };
}

const generation = { model: 'svc-image-1', prompt: 'A heron', n: 2, response_format: 'url', resolution: '1k', aspect_ratio: '16:9' };
const edit = { model: 'svc-image-1', prompt: 'Make <IMAGE_0> blue', n: 1, response_format: 'b64_json', resolution: '1k', images: [{ url: `data:image/png;base64,${pngOf(4, 4).toString('base64')}` }, { file_id: 'file_1' }], aspect_ratio: '1:1' };

async function run(name: string, lang: ExportLang, request: CapturedRequest): Promise<{ sent: ReceivedRequest; out: string; dir: string }> {
  const result = exportCode(request, { lang });
  if (!('code' in result)) throw new Error(result.unsupported);
  const dir = mkdtempSync(join(tmpdir(), `wb-images-snippet-${lang}-`));
  const before = server.received.length;
  const { stdout } = await runSnippet(name, lang, result.code, { WORKBENCH_API_KEY: KEY }, dir);
  const sent = server.received.slice(before).find((r) => r.method === 'POST')!;
  return { sent, out: stdout, dir };
}

describe('image snippets against a fake Images API', () => {
  for (const lang of ['python', 'typescript', 'typescript-sdk'] as ExportLang[]) {
    it(`${lang}: a generation sends the recorded body and saves both images from their URLs (without the key)`, async () => {
      const got = await run('images-generate', lang, recorded('/v1/images/generations', generation));
      try {
        expect(JSON.parse(got.sent.body)).toEqual(generation);
        expect(got.sent.url).toBe('/v1/images/generations');
        const downloads = server.received.filter((r) => r.method === 'GET').slice(-2);
        expect(downloads.map((r) => r.headers.authorization)).toEqual([undefined, undefined]);
        for (const name of ['image-1.png', 'image-2.png']) expect(await probeBytes(readFileSync(join(got.dir, name)))).toMatchObject({ mime: 'image/png', width: 33, height: 22 });
        expect(got.out).toContain('a revised heron');
      } finally {
        rmSync(got.dir, { recursive: true, force: true });
      }
    });

    it(`${lang}: an edit sends the recorded JSON (not multipart) and decodes the base64 image under its real format`, async () => {
      const got = await run('images-edit', lang, recorded('/v1/images/edits', edit));
      try {
        expect(got.sent.headers['content-type']).toMatch(/^application\/json/);
        expect(JSON.parse(got.sent.body)).toEqual(edit);
        expect(await probeBytes(readFileSync(join(got.dir, 'image-1.jpg')))).toMatchObject({ mime: 'image/jpeg', width: 40, height: 30 });
        expect(existsSync(join(got.dir, 'image-1.png'))).toBe(false);
      } finally {
        rmSync(got.dir, { recursive: true, force: true });
      }
    });
  }

  it('python-sdk: a generation names what the SDK takes and sends the service’s own fields as extra_body', () => {
    const result = exportCode(recorded('/v1/images/generations', generation), { lang: 'python-sdk' });
    expect('code' in result && result.code).toContain('client.images.generate(\n    model="svc-image-1",\n    prompt="A heron",\n    n=2,\n    response_format="url",\n    extra_body={\n        "resolution": "1k",\n        "aspect_ratio": "16:9",\n    },\n)');
    const edited = exportCode(recorded('/v1/images/edits', edit), { lang: 'python-sdk' });
    expect('code' in edited && edited.code).toContain('client.post("/images/edits", body={');
  });

  it('curl: an edit with megabytes of base64 goes on standard input (no argument is that long) and arrives whole', async () => {
    const big = { ...edit, images: [{ url: `data:image/png;base64,${Buffer.alloc(600 * 1024, 7).toString('base64')}` }] };
    const got = await run('images-edit-big', 'curl', recorded('/v1/images/edits', big));
    try {
      expect(JSON.parse(got.sent.body)).toEqual(big);
      expect(got.sent.headers['content-type']).toBe('application/json');
      expect(JSON.parse(got.out).data).toHaveLength(1);
    } finally {
      rmSync(got.dir, { recursive: true, force: true });
    }
  });

  it('curl: the recorded request, and how to save what it answers', () => {
    const result = exportCode(recorded('/v1/images/generations', generation), { lang: 'curl' });
    expect('code' in result && result.code).toMatch(/curl -X POST .*\/v1\/images\/generations[\s\S]*--data-raw[\s\S]*# Each data\[\]\.url expires/);
    // The service makes JPEG: the note names files by their mime_type, never a fixed .png.
    expect('code' in result && result.code).not.toContain('.png"');
    expect('code' in result && result.code).toContain('named by its data[].mime_type');
  });
});
