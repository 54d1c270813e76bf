/**
 * Browser mode as `npm start` runs it: main starts the media process, its page (CSP) may connect
 * to the media process's frame port, `media.channel` over main's WebSocket names that port and a
 * token, and the media process accepts the page's Origin; SIGTERM stops both processes.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createWorkbenchApi } from '../../../shared/contract/bridge';
import { createWsTransport, type SocketLike } from '../../../renderer/src/bridge/ws-transport';
import { createMediaChannel, webSocketFramePort } from '../../../renderer/src/bridge/media-channel';

const dataDir = mkdtempSync(join(tmpdir(), 'wb-media-shell-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function csp(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/' }, (res) => {
      res.resume();
      resolve(String(res.headers['content-security-policy'] ?? ''));
    });
    req.on('error', reject);
    req.end();
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('browser mode and its media process', () => {
  it('hands the page a frame channel its CSP allows, guarded by the page origin and its own token', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'main/browser/index.ts', '--port', '0', '--data-dir', dataDir], {
      cwd: join(import.meta.dirname, '../../..'),
      env: { ...process.env, WORKBENCH_DATA_DIR: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const firstLine = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(out.split('\n')[0]);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}:\n${stderr}`)));
    });
    const [, port, token] = /^Workbench: http:\/\/127\.0\.0\.1:(\d+)\/#token=(\S+)$/.exec(firstLine)!;
    const origin = `http://127.0.0.1:${port}`;
    const transport = createWsTransport({
      url: `ws://127.0.0.1:${port}/ws`,
      token,
      connect: (url, protocols) => new WebSocket(url, protocols, { origin }) as unknown as SocketLike,
    });
    const api = createWorkbenchApi(transport);
    try {
      const info = await api.media.channel();
      expect(info.transport).toBe('websocket');
      if (info.transport !== 'websocket') return;
      const mediaPort = Number(new URL(info.url).port);
      expect(mediaPort).not.toBe(Number(port));
      expect(info.token).not.toBe(token);
      expect(await csp(Number(port))).toContain(`ws://127.0.0.1:${mediaPort}`);

      // The page's channel opens (clock pings answered) with main's page origin.
      const channel = createMediaChannel({ connect: webSocketFramePort(async () => info, (url, p) => new WebSocket(url, p, { origin }) as unknown as SocketLike) });
      await expect.poll(() => channel.clock()?.samples ?? 0, { timeout: 10_000 }).toBeGreaterThan(0);
      channel.close();

      const mediaPid = Number(/the media process \(pid (\d+)\) is up/.exec(stderr)?.[1] ?? 0);
      expect(mediaPid).toBeGreaterThan(0);
      expect(alive(mediaPid)).toBe(true);
      const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
      await expect.poll(() => alive(mediaPid), { timeout: 5000 }).toBe(false);
    } finally {
      transport.dispose();
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
