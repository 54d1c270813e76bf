import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => ({
  protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn(), unhandle: vi.fn() },
}));
vi.mock('electron', () => electron);

const { appProtocolResponse, registerAppScheme, setupAppProtocol } = await import('../../../../main/electron/protocol');

const SECRET = 'outside the renderer';
let root: string;
let rendererDir: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'wb-proto-'));
  rendererDir = join(root, 'renderer');
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html>');
  writeFileSync(join(rendererDir, 'assets', 'style.css'), 'body{}');
  writeFileSync(join(root, 'secret.txt'), SECRET);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('protocol', () => {
  describe('registerAppScheme()', () => {
    it('registers app:// and workbench-media:// as standard, secure, fetch-capable schemes in one call', () => {
      registerAppScheme();
      expect(electron.protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
        { scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true, supportFetchAPI: true }) },
        { scheme: 'workbench-media', privileges: expect.objectContaining({ standard: true, secure: true, supportFetchAPI: true, stream: true }) },
      ]);
    });
  });

  describe('setupAppProtocol()', () => {
    it('serves the app scheme until disposed', async () => {
      const dispose = setupAppProtocol(rendererDir);
      const [scheme, handler] = electron.protocol.handle.mock.calls[0] as [string, (r: Request) => Promise<Response>];
      expect(scheme).toBe('app');
      expect((await handler(new Request('app://workbench/index.html'))).status).toBe(200);
      dispose();
      expect(electron.protocol.unhandle).toHaveBeenCalledWith('app');
    });
  });

  describe('appProtocolResponse()', () => {
    it('serves index.html with the CSP and security headers', async () => {
      const res = await appProtocolResponse(rendererDir, 'app://workbench/index.html');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self';/);
      expect(res.headers.get('content-security-policy')).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await res.text()).toBe('<!doctype html>');
    });

    it('serves assets with their MIME type and routes to index.html', async () => {
      expect((await appProtocolResponse(rendererDir, 'app://workbench/assets/style.css')).headers.get('content-type')).toBe(
        'text/css; charset=utf-8',
      );
      expect(await (await appProtocolResponse(rendererDir, 'app://workbench/history')).text()).toBe('<!doctype html>');
    });

    it.each([
      'app://workbench/%2e%2e/secret.txt',
      'app://workbench/assets/..%2f..%2fsecret.txt',
      'app://workbench/..%5csecret.txt',
      'app://workbench/../secret.txt',
      'app://evil/secret.txt',
      'app://workbench/assets/missing.js',
    ])('never serves anything outside the renderer folder: %s', async (url) => {
      const res = await appProtocolResponse(rendererDir, url);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(await res.text()).not.toContain(SECRET);
    });

    it('refuses methods other than GET and HEAD', async () => {
      expect((await appProtocolResponse(rendererDir, 'app://workbench/index.html', 'POST')).status).toBe(405);
    });
  });
});
