/**
 * Code export of voices, executed as shown, per language (curl, Python standard library,
 * TypeScript fetch): the built-in voice list and one voice; then a custom voice's whole life from
 * the recorded requests: create (multipart, metadata then the clip last), list a page, get, PATCH,
 * its reference clip written to a file ffprobe reads, DELETE. Each printed answer is checked
 * against the sandbox's state, not against fixed text.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CapturedRequest } from '../../../shared/contract/runs';
import type { ExportLang } from '../../../shared/families/types';
import { VOICE_AUDIO_EXPORTER, VOICE_CREATE_EXPORTER, VOICE_JSON_EXPORTER } from '../../../shared/codegen/voice-voices';
import { startSandbox, type SandboxServer } from '../../../main/sandbox/index';
import { runSnippet } from './run-snippet';

const KEY = 'sk-codegen-voices-01';
let sandbox: SandboxServer;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ tokenDelayMs: 0, keys: [KEY] });
  dir = mkdtempSync(join(tmpdir(), 'wb-voices-snippet-'));
  execFileSync('espeak-ng', ['-v', 'en+f4', '-p', '80', '-w', join(dir, 'my reference.wav'), 'This is my reference recording for a custom voice.']);
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

function code(result: { code: string } | { unsupported: string }): string {
  if (!('code' in result)) throw new Error(result.unsupported);
  return result.code;
}

const rec = (method: string, path: string, body: unknown = null): CapturedRequest => ({ method, url: `${sandbox.url}${path}`, headers: { authorization: 'Bearer ***' }, body });
const api = async (path: string, init: RequestInit = {}) => {
  const res = await fetch(`${sandbox.url}${path}`, { ...init, headers: { authorization: `Bearer ${KEY}` } });
  return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? await res.json() : null };
};

for (const lang of ['curl', 'python', 'typescript'] as ExportLang[]) {
  describe(`${lang} voice snippets against the sandbox`, () => {
    const run = async (name: string, exporter: typeof VOICE_JSON_EXPORTER, request: CapturedRequest) =>
      (await runSnippet(`voice-${name}-${lang}`, lang, code(exporter[lang](request, {})), { WORKBENCH_API_KEY: KEY }, dir)).stdout;

    it('lists the built-in voices and gets one', async () => {
      expect(JSON.parse(await run('builtin-list', VOICE_JSON_EXPORTER, rec('GET', '/v1/tts/voices')))).toEqual((await api('/v1/tts/voices')).body);
      expect(JSON.parse(await run('builtin-get', VOICE_JSON_EXPORTER, rec('GET', '/v1/tts/voices/EVE')))).toEqual(expect.objectContaining({ voice_id: 'eve' }));
    });

    it('creates, lists, gets, patches, downloads and deletes a custom voice', async () => {
      const created = JSON.parse(
        await run(
          'create',
          VOICE_CREATE_EXPORTER,
          rec('POST', '/v1/custom-voices', {
            multipart: [
              { name: 'name', value: `Heron (${lang})` },
              { name: 'gender', value: 'female' },
              { name: 'tone', value: 'warm' },
              { name: 'language', value: 'en' },
              { name: 'file', filename: 'my reference.wav', contentType: 'audio/wav', bytes: 1 },
            ],
          }),
        ),
      ) as { voice_id: string; name: string };
      expect(created).toEqual(expect.objectContaining({ name: `Heron (${lang})`, gender: 'female', tone: 'warm', language: 'en' }));
      const id = created.voice_id;
      expect((await api(`/v1/custom-voices/${id}`)).body).toEqual(created);

      const page = JSON.parse(await run('list', VOICE_JSON_EXPORTER, rec('GET', '/v1/custom-voices?limit=1000'))) as { voices: Array<{ voice_id: string }> };
      expect(page.voices.map((v) => v.voice_id)).toContain(id);

      expect(JSON.parse(await run('get', VOICE_JSON_EXPORTER, rec('GET', `/v1/custom-voices/${id}`)))).toEqual(created);

      const patched = JSON.parse(await run('patch', VOICE_JSON_EXPORTER, rec('PATCH', `/v1/custom-voices/${id}`, { tone: 'calm', description: null }))) as Record<string, unknown>;
      expect(patched).toEqual(expect.objectContaining({ voice_id: id, tone: 'calm', description: null }));
      expect((await api(`/v1/custom-voices/${id}`)).body).toEqual(expect.objectContaining({ tone: 'calm' }));

      const saved = await run('audio', VOICE_AUDIO_EXPORTER, rec('GET', `/v1/custom-voices/${id}/audio`));
      expect(saved).toMatch(/saved reference\.wav/);
      const format = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=format_name,duration', '-of', 'json', join(dir, 'reference.wav')], { encoding: 'utf8' });
      expect(Number(JSON.parse(format).format.duration)).toBeGreaterThan(1);
      rmSync(join(dir, 'reference.wav'));

      expect(JSON.parse(await run('delete', VOICE_JSON_EXPORTER, rec('DELETE', `/v1/custom-voices/${id}`)))).toEqual(expect.objectContaining({ deleted: true }));
      expect((await api(`/v1/custom-voices/${id}`)).status).toBe(404);
    });
  });
}
