/**
 * eSpeak's worker is sent as source text built from a function, and loads `espeak-ng` and lamejs
 * by paths resolved from the importing module: this checks that survives the app's bundler
 * (vite.main.config.ts with the sandbox as an entry) — real speech, MP3 encoded in the worker —
 * and that the audio decoders load from the bundle (an MP3 reference for a custom voice).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MPEGDecoder } from 'mpg123-decoder';
import { afterAll, describe, expect, it } from 'vitest';
import type { startSandbox as StartSandbox } from '../../../main/sandbox/index';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('sandbox speech from the bundled app code', () => {
  mkdirSync(join(root, 'out'), { recursive: true });
  const outDir = mkdtempSync(join(root, 'out', '.test-tts-bundle-'));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('speaks MP3 and decodes an MP3 reference clip', async () => {
    const { build } = await import('vite');
    await build({
      configFile: join(root, 'vite.main.config.ts'),
      root,
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true, sourcemap: false, rollupOptions: { input: { sandbox: join(root, 'main/sandbox/index.ts') } } },
    });
    const bundled = (await import(/* @vite-ignore */ pathToFileURL(join(outDir, 'sandbox.js')).href)) as { startSandbox: typeof StartSandbox };
    const sandbox = await bundled.startSandbox({ keys: ['sk-bundle'] });
    try {
      const auth = { authorization: 'Bearer sk-bundle' };
      const res = await fetch(`${sandbox.url}/v1/tts`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ text: 'Bundled speech works.', language: 'en' }) });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { audio: string; duration: number };
      const mp3 = Buffer.from(body.audio, 'base64');
      const decoder = new MPEGDecoder();
      await decoder.ready;
      const decoded = decoder.decode(mp3);
      decoder.free();
      expect(Math.abs(decoded.samplesDecoded / decoded.sampleRate - body.duration)).toBeLessThanOrEqual(0.05);
      const form = new FormData();
      form.append('name', 'From the bundle');
      form.append('file', new Blob([new Uint8Array(mp3)]), 'ref.mp3');
      const voice = await fetch(`${sandbox.url}/v1/custom-voices`, { method: 'POST', headers: auth, body: form });
      expect(voice.status).toBe(201);
    } finally {
      await sandbox.close();
    }
  }, 240_000);
});
