// Browser mode's transport across a dropped socket: sessions opened with `reattach` (a live
// attachment) and keyed subscriptions are made again on the new socket; everything else fails.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServerMessage } from '../../../shared/contract/protocol';
import { createWsTransport, type SocketLike, type WsTransport } from '../../../renderer/src/bridge/ws-transport';

class FakeSocket implements SocketLike {
  readyState = 0;
  bufferedAmount = 0;
  binaryType = 'blob';
  readonly sent: Array<{ t: string; id: number; method: string; input?: unknown; streamId?: string }> = [];
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  send(data: string | Uint8Array) {
    this.sent.push(JSON.parse(String(data)));
  }
  close() {
    this.drop();
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(message: ServerMessage) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop() {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose?.({});
  }
}

let sockets: FakeSocket[];
let transport: WsTransport;
const last = () => sockets[sockets.length - 1];
const methods = (socket: FakeSocket) => socket.sent.map((m) => (m.t === 'stream' ? `stream ${m.method} ${m.streamId}` : `${m.method} ${JSON.stringify(m.input ?? null)}`));

beforeEach(() => {
  vi.useFakeTimers();
  sockets = [];
  transport = createWsTransport({
    url: 'ws://127.0.0.1:9/ws',
    token: 'T0KEN',
    backoff: { initialMs: 10, maxMs: 10 },
    connect: () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket;
    },
  });
});

afterEach(() => {
  transport.dispose();
  vi.useRealTimers();
});

describe('ws-transport across a dropped socket', () => {
  it('starts a reattaching session again on the new socket, same id, first thing; a plain stream fails', async () => {
    const chunks: unknown[] = [];
    const live = transport.stream('live.attach', { id: 'live_abcdefgh' }, 'attach-0001', (c) => chunks.push(c), { reattach: true });
    const plain = transport.stream('chat.send', {}, 'stream-0001', () => {});
    last().open();
    // Opened before the first socket: sent once, not twice.
    expect(methods(last())).toEqual(['stream live.attach attach-0001', 'stream chat.send stream-0001']);
    last().receive({ t: 'chunk', streamId: 'attach-0001', chunk: { type: 'snapshot', seq: 0 } });
    last().drop();
    expect(await plain).toMatchObject({ ok: false, error: { code: 'network' } });
    const queuedCall = transport.call('app.info', undefined);
    await vi.advanceTimersByTimeAsync(10);
    last().open();
    expect(methods(last())).toEqual(['stream live.attach attach-0001', 'app.info null']);
    last().receive({ t: 'chunk', streamId: 'attach-0001', chunk: { type: 'snapshot', seq: 4 } });
    last().receive({ t: 'reply', id: last().sent[1].id, reply: { ok: true, value: 'info' } });
    expect(await queuedCall).toEqual({ ok: true, value: 'info' });
    last().receive({ t: 'end', streamId: 'attach-0001', reply: { ok: true, value: 'ended' } });
    expect(await live).toEqual({ ok: true, value: 'ended' });
    expect(chunks).toEqual([{ type: 'snapshot', seq: 0 }, { type: 'snapshot', seq: 4 }]);
  });

  it('a session opened while the socket is down waits for the new one; dispose fails it', async () => {
    last().open();
    last().drop();
    const live = transport.stream('live.attach', { id: 'live_abcdefgh' }, 'attach-0002', () => {}, { reattach: true });
    await vi.advanceTimersByTimeAsync(10);
    last().open();
    expect(methods(last())).toEqual(['stream live.attach attach-0002']);
    transport.dispose();
    expect(await live).toMatchObject({ ok: false, error: { code: 'network' } });
  });

  it('keyed subscriptions: asked once per key, again on every new socket, and dropped with the last listener', async () => {
    last().open();
    const got: unknown[] = [];
    const offA = transport.subscribeKeyed('probe.level', 'a', (p) => got.push(['a1', p]));
    const offA2 = transport.subscribeKeyed('probe.level', 'a', (p) => got.push(['a2', p]));
    transport.subscribeKeyed('probe.level', 'b', (p) => got.push(['b', p]));
    expect(methods(last())).toEqual(['ops.subscribe {"channel":"probe.level","key":"a"}', 'ops.subscribe {"channel":"probe.level","key":"b"}']);
    last().receive({ t: 'event', channel: 'probe.level', key: 'a', payload: 1 });
    last().receive({ t: 'event', channel: 'probe.level', key: 'b', payload: 2 });
    last().receive({ t: 'event', channel: 'probe.level', key: 'c', payload: 3 });
    expect(got).toEqual([['a1', 1], ['a2', 1], ['b', 2]]);
    last().drop();
    await vi.advanceTimersByTimeAsync(10);
    last().open();
    expect(methods(last())).toEqual(['ops.subscribe {"channel":"probe.level","key":"a"}', 'ops.subscribe {"channel":"probe.level","key":"b"}']);
    offA();
    expect(methods(last())).toHaveLength(2);
    offA2();
    expect(methods(last()).at(-1)).toBe('ops.unsubscribe {"channel":"probe.level","key":"a"}');
  });
});
