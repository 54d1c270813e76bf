/**
 * Live sessions over browser mode's real loopback server and the page's WebSocket transport, in
 * one Node process (main and page share an event loop, so these are upper bounds for the
 * bridge's own cost, not for a real page): a test-only ticker kind (test/unit/main/live).
 * - events: one control message asking for 10,000 events, until the page has them all (events/s);
 * - reattach: the page's socket terminated, until the re-attached session's fresh snapshot
 *   arrives (ms, 20 drops; includes the transport's first reconnect delay of 20 ms);
 * - keyed: 10,000 keyed events over 100 keys, one tab following one key: what reached it.
 * `npx tsx test/bench/live-sessions.ts`, or `npm run bench -- liveSessions`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { createWorkbenchApi } from '../../shared/contract/bridge';
import type { LiveAttachChunk } from '../../shared/contract/live';
import { startBrowserServer } from '../../main/host/browser-server';
import { createHost, type Host } from '../../main/host/host';
import { createWsTransport, type SocketLike, type WsTransport } from '../../renderer/src/bridge/ws-transport';
import { createFakeHandlers } from '../unit/main/host/fake-handlers';
import { testContract, type TestContract } from '../unit/main/host/probe-family';

const wait = (condition: () => boolean) =>
  new Promise<void>((resolve) => {
    const check = () => (condition() ? resolve() : setTimeout(check, 0));
    check();
  });

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const round = (n: number) => Math.round(n * 10) / 10;

export async function run(): Promise<Record<string, unknown>> {
  let host: Host<TestContract> | null = null;
  const fake = createFakeHandlers({ onLiveChanged: (s) => host?.emit('live.changed', s) });
  host = createHost({ contract: testContract, handlers: fake.handlers });
  const staticDir = mkdtempSync(join(tmpdir(), 'wb-bench-live-'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  const server = await startBrowserServer({ host, staticDir });
  const origin = `http://127.0.0.1:${server.port}`;
  let socket: WebSocket | null = null;
  const transports: WsTransport[] = [];
  const open = () => {
    const t = createWsTransport({
      url: `ws://127.0.0.1:${server.port}/ws`,
      token: server.token,
      backoff: { initialMs: 20, maxMs: 200 },
      connect: (url, protocols) => (socket = new WebSocket(url, protocols, { origin })) as unknown as SocketLike,
    });
    transports.push(t);
    return t;
  };
  try {
    const other = open();
    const page = open();
    await wait(() => page.status() === 'connected' && other.status() === 'connected');
    const api = createWorkbenchApi(page, testContract);
    const otherApi = createWorkbenchApi(other, testContract);

    // Events.
    const { id } = await api.live.start({ kind: 'test-ticker', input: { label: 'bench', intervalMs: 0 } });
    const chunks: LiveAttachChunk[] = [];
    const attachment = api.live.attach({ id }, (c) => chunks.push(c));
    await wait(() => chunks.length === 1);
    const EVENTS = 10_000;
    const t0 = performance.now();
    await attachment.send({ type: 'tick', count: 1000 });
    for (let i = 1; i < EVENTS / 1000; i++) await attachment.send({ type: 'tick', count: 1000 });
    await wait(() => chunks.filter((c) => c.type === 'event').length + chunks.filter((c) => c.type === 'snapshot').length - 1 >= 0 && lastSeq(chunks) >= EVENTS);
    const eventsMs = performance.now() - t0;

    // Re-attach after a dropped socket.
    const reattachMs: number[] = [];
    for (let i = 0; i < 20; i++) {
      const snapshotsBefore = chunks.filter((c) => c.type === 'snapshot').length;
      const start = performance.now();
      socket!.terminate();
      await wait(() => chunks.filter((c) => c.type === 'snapshot').length > snapshotsBefore);
      reattachMs.push(performance.now() - start);
    }
    const finalSeq = lastSeq(chunks);

    // Keyed events.
    let mine = 0;
    let theirs = 0;
    api.probe.onLevel('key-7', () => mine++);
    otherApi.probe.onLevel('key-8', () => theirs++);
    await wait(() => host!.keyedSubscriptions() === 2);
    const k0 = performance.now();
    for (let n = 0; n < 10_000; n++) host.emitKeyed('probe.level', `key-${n % 100}`, { n });
    await wait(() => mine === 100 && theirs === 100);
    const keyedMs = performance.now() - k0;
    await api.live.stop({ id });

    return {
      events: { count: EVENTS, ms: round(eventsMs), perSecond: Math.round(EVENTS / (eventsMs / 1000)) },
      reattach: { drops: 20, p50Ms: round(percentile(reattachMs, 50)), p95Ms: round(percentile(reattachMs, 95)), maxMs: round(Math.max(...reattachMs)), seqAfter: finalSeq, snapshotsSeen: chunks.filter((c) => c.type === 'snapshot').length },
      keyed: { emitted: 10_000, keys: 100, receivedByFollowerOfOneKey: mine, receivedByOtherTab: theirs, ms: round(keyedMs) },
    };
  } finally {
    for (const t of transports) t.dispose();
    await server.close();
    host.dispose();
    await fake.live.shutdown();
    rmSync(staticDir, { recursive: true, force: true });
  }
}

function lastSeq(chunks: LiveAttachChunk[]): number {
  for (let i = chunks.length - 1; i >= 0; i--) {
    const c = chunks[i];
    if (c.type === 'event' || c.type === 'snapshot') return c.seq;
  }
  return 0;
}

if (process.argv[1]?.endsWith('live-sessions.ts')) {
  void run().then((figures) => process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`));
}
