/**
 * The video encoder's worker is sent as source text built from function bodies, so it must
 * survive the app's bundler (which may rename functions) as well as the TypeScript runners. This
 * builds the sandbox with the app's own main-process config (vite.main.config.ts, plus the
 * sandbox as an entry) and makes a real video with the bundled code.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { startSandbox as StartSandbox } from '../../../main/sandbox/index';
import { ffprobe } from '../../unit/main/sandbox/video/ffprobe';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('sandbox videos from the bundled app code', () => {
  // Inside the project (out/ is ignored), as the app's build is: the bundle finds node_modules from there.
  mkdirSync(join(root, 'out'), { recursive: true });
  const outDir = mkdtempSync(join(root, 'out', '.test-sandbox-bundle-'));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('encodes a playable MP4', async () => {
    const { build } = await import('vite');
    await build({
      configFile: join(root, 'vite.main.config.ts'),
      root,
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true, sourcemap: false, rollupOptions: { input: { sandbox: join(root, 'main/sandbox/index.ts') } } },
    });
    const bundled = (await import(/* @vite-ignore */ pathToFileURL(join(outDir, 'sandbox.js')).href)) as { startSandbox: typeof StartSandbox };
    const sandbox = await bundled.startSandbox({ keys: ['sk-bundle'], now: () => 1_800_000_000_000 });
    try {
      const headers = { authorization: 'Bearer sk-bundle', 'content-type': 'application/json' };
      const created = await fetch(`${sandbox.url}/v1/videos/generations`, { method: 'POST', headers, body: JSON.stringify({ prompt: 'bundled', duration: 1, resolution: '480p' }) });
      const { request_id: id } = (await created.json()) as { request_id: string };
      await fetch(`${sandbox.url}/sandbox/clock/advance`, { method: 'POST', headers, body: JSON.stringify({ seconds: 60 }) });
      let result: { status: string; video?: { url: string } } = { status: 'pending' };
      for (let i = 0; i < 200 && result.status === 'pending'; i++) {
        result = (await (await fetch(`${sandbox.url}/v1/videos/${id}`, { headers })).json()) as typeof result;
        if (result.status === 'pending') await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(result).toMatchObject({ status: 'done' });
      const mp4 = new Uint8Array(await (await fetch(result.video!.url)).arrayBuffer());
      expect(ffprobe(mp4)).toEqual({ codec: 'h264', width: 854, height: 480, duration: 1 });
    } finally {
      await sandbox.close();
    }
  });
});
