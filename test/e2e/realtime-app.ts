/**
 * The set-up every realtime console e2e file shares: a sandbox of the file's own (behind the
 * dropping socket proxy when asked), the app in browser mode in Chromium with its microphone (a
 * WAV for Chromium's fake capture, or native audio through the app's environment), and a service
 * connection to that sandbox. `close()` undoes whatever `start()` got to, so a set-up that failed
 * half-way leaves nothing running.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { startSandbox, type SandboxServer } from '../../main/sandbox';
import { closeAppPage, fakeMicrophoneArgs, openAppPage, useServiceConnection, type AppPage } from './harness';
import { startSocketProxy, type SocketProxy } from './realtime-helpers';

export interface RealtimeAppOptions {
  key: string;
  /** The temporary folder's name, for finding it while debugging. */
  name: string;
  /** The fake microphone's WAV, made in the folder; leave out for native audio. */
  mic?: (dir: string) => Buffer;
  /** Before the app opens: files it needs in the folder; answers the app's extra environment. */
  prepare?: (dir: string) => Record<string, string>;
  /** The connection goes through startSocketProxy (its sockets can be dropped, handshakes held). */
  proxy?: boolean;
  height?: number;
}

export interface RealtimeApp {
  readonly dir: string;
  readonly page: Page;
  readonly sb: SandboxServer;
  readonly proxy: SocketProxy;
  start(): Promise<void>;
  /** Stops all of it; the app must exit cleanly (code 0). */
  close(): Promise<void>;
}

export function realtimeApp(options: RealtimeAppOptions): RealtimeApp {
  const dir = mkdtempSync(join(tmpdir(), `wb-rt-${options.name}-`));
  let opened: AppPage | undefined;
  let sb: SandboxServer | undefined;
  let proxy: SocketProxy | undefined;
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is not running: start() first${what === 'the proxy' ? ' with proxy: true' : ''}.`);
    return value;
  };
  return {
    dir,
    get page() {
      return need(opened, 'the app').page;
    },
    get sb() {
      return need(sb, 'the sandbox');
    },
    get proxy() {
      return need(proxy, 'the proxy');
    },
    async start() {
      sb = await startSandbox({ keys: [options.key], tokenDelayMs: 0 });
      if (options.proxy) proxy = await startSocketProxy(sb.url);
      const env = options.prepare?.(dir);
      let browserArgs: string[] | undefined;
      if (options.mic) {
        const mic = join(dir, 'mic.wav');
        writeFileSync(mic, options.mic(dir));
        browserArgs = fakeMicrophoneArgs(mic);
      }
      opened = await openAppPage({ viewport: { width: 1400, height: options.height ?? 1200 }, ...(env ? { env } : {}), ...(browserArgs ? { browserArgs } : {}) });
      await opened.page.goto(opened.app.url);
      await useServiceConnection(opened.page, { name: 'Realtime sandbox', url: proxy?.url ?? sb.url, key: options.key });
    },
    async close() {
      await proxy?.close();
      await sb?.close();
      const code = await closeAppPage(opened);
      rmSync(dir, { recursive: true, force: true });
      expect(code).toBe(opened ? 0 : undefined);
    },
  };
}

/** realtimeApp, started before the file's tests and closed after them. */
export function useRealtimeApp(options: RealtimeAppOptions): RealtimeApp {
  const rt = realtimeApp(options);
  beforeAll(() => rt.start(), 180_000);
  afterAll(() => rt.close());
  return rt;
}
