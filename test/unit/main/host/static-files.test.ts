import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mimeType, precompressedVariant, resolveStaticFile } from '../../../../main/host/static-files';

let root: string;
let dir: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'wb-static-'));
  dir = join(root, 'renderer');
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), '');
  writeFileSync(join(dir, 'assets', 'a.js'), '');
  writeFileSync(join(root, 'secret.txt'), '');
  symlinkSync(join(root, 'secret.txt'), join(dir, 'assets', 'link.txt'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('static-files', () => {
  describe('resolveStaticFile()', () => {
    it('maps / and client-side routes to index.html, files to themselves', async () => {
      expect(await resolveStaticFile(dir, '/')).toMatchObject({ ok: true, path: join(dir, 'index.html'), isIndex: true });
      expect(await resolveStaticFile(dir, '/history/run-1')).toMatchObject({ ok: true, isIndex: true });
      expect(await resolveStaticFile(dir, '/assets/a.js')).toEqual({
        ok: true,
        path: join(dir, 'assets', 'a.js'),
        contentType: 'text/javascript; charset=utf-8',
        isIndex: false,
      });
      expect(await resolveStaticFile(dir, '/assets/missing.js')).toEqual({ ok: false, status: 404 });
    });

    it('refuses a symlink that points outside the folder', async () => {
      expect(await resolveStaticFile(dir, '/assets/link.txt')).toEqual({ ok: false, status: 404 });
    });

    it('never resolves outside the folder, whatever the path', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.constantFrom('..', '.', '%2e%2e', '%2E.', 'assets', 'secret.txt', '%2f', '%5c', '\\', '', 'a%00'), { maxLength: 6 }),
          async (parts) => {
            const result = await resolveStaticFile(dir, `/${parts.join('/')}`);
            if (result.ok) expect(result.path.startsWith(dir)).toBe(true);
          },
        ),
        { numRuns: 300 },
      );
    });
  });

  describe('mimeType()', () => {
    it('knows the renderer’s file types and falls back to opaque bytes', () => {
      expect([mimeType('a.css'), mimeType('a.woff2'), mimeType('a.SVG'), mimeType('a.bin')]).toEqual([
        'text/css; charset=utf-8',
        'font/woff2',
        'image/svg+xml',
        'application/octet-stream',
      ]);
    });
  });

  describe('precompressedVariant()', () => {
    it('prefers Brotli, falls back to gzip, honours q=0, and needs the copy to exist', async () => {
      const file = join(dir, 'assets', 'big.js');
      writeFileSync(file, 'x'.repeat(10));
      writeFileSync(`${file}.br`, 'b');
      writeFileSync(`${file}.gz`, 'gg');
      expect(await precompressedVariant(file, 'gzip, deflate, br, zstd')).toEqual({ path: `${file}.br`, encoding: 'br', size: 1 });
      expect(await precompressedVariant(file, 'gzip;q=1.0, br;q=0')).toEqual({ path: `${file}.gz`, encoding: 'gzip', size: 2 });
      expect(await precompressedVariant(file, 'identity')).toBeNull();
      expect(await precompressedVariant(file, undefined)).toBeNull();
      expect(await precompressedVariant(join(dir, 'assets', 'a.js'), 'br, gzip')).toBeNull();
    });
  });
});
