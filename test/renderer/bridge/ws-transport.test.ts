import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { decodeBinaryFrame, encodeBinaryFrame } from '../../../shared/contract/binary-frame';
import { SOCKET_HIGH_WATER_BYTES, type CallReply, type ServerMessage } from '../../../shared/contract/protocol';
import { createWsTransport, UNAUTHORIZED_MESSAGE, type SocketLike, type WsTransport } from '../../../renderer/src/bridge/ws-transport';

class FakeSocket implements SocketLike {
  readyState = 0;
  bufferedAmount = 0;
  binaryType = 'blob';
  readonly sent: unknown[] = [];
  /** Per sent message: was it a binary frame? */
  readonly binary: boolean[] = [];
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {}
  send(data: string | Uint8Array) {
    this.binary.push(typeof data !== 'string');
    this.sent.push(typeof data === 'string' ? JSON.parse(data) : decodeBinaryFrame(data));
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

/** A fresh transport with `token` over fake sockets (kept in `sockets`), replacing the current one. */
function fresh(token: string, probe?: Parameters<typeof createWsTransport>[0]['probe']): WsTransport {
  transport?.dispose();
  sockets = [];
  transport = createWsTransport({
    url: 'ws://127.0.0.1:9/ws',
    token,
    connect: (url, protocols) => {
      const socket = new FakeSocket(url, protocols);
      sockets.push(socket);
      return socket;
    },
    ...(probe ? { probe } : {}),
  });
  return transport;
}

beforeEach(() => {
  vi.useFakeTimers();
  fresh('T0KEN');
});

afterEach(() => {
  transport.dispose();
  vi.useRealTimers();
});

const ok = (value: unknown): CallReply => ({ ok: true, value });

describe('ws-transport', () => {
  describe('createWsTransport()', () => {
    it('offers the token as a subprotocol, never in the URL', () => {
      expect(last().url).toBe('ws://127.0.0.1:9/ws');
      expect(last().protocols).toEqual(['workbench', 'token.T0KEN']);
    });

    it('holds calls until the socket opens, then matches replies by id', async () => {
      const first = transport.call('app.info', undefined);
      const second = transport.call('history.facets', {});
      expect(last().sent).toEqual([]);
      last().open();
      expect(last().sent).toEqual([
        { t: 'call', id: 1, method: 'app.info' },
        { t: 'call', id: 2, method: 'history.facets', input: {} },
      ]);
      last().receive({ t: 'reply', id: 2, reply: ok('two') });
      last().receive({ t: 'reply', id: 1, reply: ok('one') });
      expect([await first, await second]).toEqual([ok('one'), ok('two')]);
    });

    it('delivers a stream’s chunks, then resolves with its end', async () => {
      last().open();
      const chunks: unknown[] = [];
      const result = transport.stream('chat.send', { x: 1 }, 'stream-0001', (c) => chunks.push(c));
      last().receive({ t: 'chunk', streamId: 'stream-0001', chunk: 1 });
      last().receive({ t: 'chunk', streamId: 'other-stream', chunk: 'not mine' });
      last().receive({ t: 'chunk', streamId: 'stream-0001', chunk: 2 });
      last().receive({ t: 'end', streamId: 'stream-0001', reply: ok('done') });
      expect(await result).toEqual(ok('done'));
      expect(chunks).toEqual([1, 2]);
    });

    it('fails calls and streams in flight with a network error when the socket drops, then reconnects', async () => {
      const statuses: string[] = [];
      transport.onStatus((s) => statuses.push(s));
      last().open();
      const call = transport.call('app.info', undefined);
      const stream = transport.stream('chat.send', {}, 'stream-0001', () => {});
      last().drop();
      for (const reply of [await call, await stream]) {
        expect(reply).toMatchObject({ ok: false, error: { code: 'network', message: expect.stringMatching(/Disconnected from the workbench process/) } });
      }
      expect(transport.status()).toBe('disconnected');
      vi.advanceTimersByTime(250);
      expect(sockets).toHaveLength(2);
      last().open();
      expect(statuses).toEqual(['connected', 'disconnected', 'connecting', 'connected']);
      const again = transport.call('app.info', undefined);
      last().receive({ t: 'reply', id: 3, reply: ok('back') });
      expect(await again).toEqual(ok('back'));
    });

    it('fails waiting calls when a connection attempt fails, instead of hanging', async () => {
      const call = transport.call('app.info', undefined);
      last().drop();
      expect(await call).toMatchObject({ ok: false, error: { code: 'network', message: expect.stringMatching(/Cannot reach/) } });
    });

    it('backs off between attempts, doubling up to a ceiling', () => {
      const gaps: number[] = [];
      for (let attempt = 0; attempt < 7; attempt++) {
        last().drop();
        const before = sockets.length;
        let waited = 0;
        while (sockets.length === before) {
          vi.advanceTimersByTime(50);
          waited += 50;
        }
        gaps.push(waited);
      }
      expect(gaps).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000]);
    });

    it('keeps event subscriptions across reconnects and stops after unsubscribe', () => {
      const seen: unknown[] = [];
      const off = transport.subscribe('connections.changed', (p) => seen.push(p));
      last().open();
      last().receive({ t: 'event', channel: 'connections.changed', payload: 1 });
      last().receive({ t: 'event', channel: 'other.event', payload: 'x' });
      last().drop();
      vi.advanceTimersByTime(250);
      last().open();
      last().receive({ t: 'event', channel: 'connections.changed', payload: 2 });
      off();
      last().receive({ t: 'event', channel: 'connections.changed', payload: 3 });
      expect(seen).toEqual([1, 2]);
    });

    it('ignores garbage from the server', async () => {
      last().open();
      const call = transport.call('app.info', undefined);
      last().onmessage?.({ data: 'not json' });
      last().onmessage?.({ data: new ArrayBuffer(2) });
      last().receive({ t: 'reply', id: 1, reply: ok(1) });
      expect(await call).toEqual(ok(1));
    });

    it('sends a message carrying bytes as a binary frame and reads binary frames from main', async () => {
      last().open();
      expect(last().binaryType).toBe('arraybuffer');
      const chunks: unknown[] = [];
      const stream = transport.stream('probe.echo', { label: 'x' }, 'session-0001', (c) => chunks.push(c));
      const sent = transport.call('ops.send', { id: 'session-0001', message: { seq: 1, data: new Uint8Array([1, 2]) } });
      expect(last().binary).toEqual([false, true]);
      expect(last().sent[1]).toEqual({ t: 'call', id: 2, method: 'ops.send', input: { id: 'session-0001', message: { seq: 1, data: new Uint8Array([1, 2]) } } });
      const frame = encodeBinaryFrame({ t: 'chunk', streamId: 'session-0001', chunk: { data: new Uint8Array([2, 1]) } });
      last().onmessage?.({ data: frame.buffer.slice(frame.byteOffset, frame.byteOffset + frame.byteLength) });
      last().receive({ t: 'reply', id: 2, reply: ok(null) });
      last().receive({ t: 'end', streamId: 'session-0001', reply: ok('done') });
      expect([await sent, await stream]).toEqual([ok(null), ok('done')]);
      expect(chunks).toEqual([{ data: new Uint8Array([2, 1]) }]);
    });

    it('holds outgoing messages, in order, while the socket is above its high-water mark', () => {
      last().open();
      last().bufferedAmount = SOCKET_HIGH_WATER_BYTES + 1;
      void transport.call('ops.send', { id: 'session-0001', message: { seq: 1, data: new Uint8Array(8) } });
      void transport.call('app.info', undefined);
      expect(last().sent).toEqual([]);
      vi.advanceTimersByTime(50);
      expect(last().sent).toEqual([]);
      last().bufferedAmount = 0;
      vi.advanceTimersByTime(5);
      expect(last().sent.map((m) => (m as { id: number }).id)).toEqual([1, 2]);
    });

    it('dispose fails what is pending and stops reconnecting', async () => {
      last().open();
      const call = transport.call('app.info', undefined);
      transport.dispose();
      expect(await call).toMatchObject({ ok: false, error: { code: 'network' } });
      vi.advanceTimersByTime(10_000);
      expect(sockets).toHaveLength(1);
      expect(await transport.call('app.info', undefined)).toMatchObject({ ok: false, error: { code: 'network' } });
    });
  });

  describe('a failed connection attempt, with a probe', () => {
    function withProbe(reach: 'ok' | 'unauthorized' | 'unreachable'): WsTransport {
      return fresh('WRONG', async () => reach);
    }

    it('says once that the running process refused the token, never "is it still running?", and stops retrying', async () => {
      const t = withProbe('unauthorized');
      const waiting = t.call('app.info', undefined);
      last().drop();
      expect(await waiting).toEqual({ ok: false, error: { code: 'network', message: UNAUTHORIZED_MESSAGE } });
      expect(UNAUTHORIZED_MESSAGE).not.toMatch(/still running/);
      expect(t.status()).toBe('unauthorized');
      await vi.advanceTimersByTimeAsync(10_000);
      expect(sockets).toHaveLength(1);
      expect(await t.call('history.facets', {})).toEqual({ ok: false, error: { code: 'network', message: UNAUTHORIZED_MESSAGE } });
    });

    it('tells what to do after a restart: open the link the new start printed, in this tab', () => {
      expect(UNAUTHORIZED_MESSAGE).toMatch(/earlier start/);
      expect(UNAUTHORIZED_MESSAGE).toMatch(/Open the link `npm start` printed/);
      expect(UNAUTHORIZED_MESSAGE).toMatch(/this tab/);
    });

    it('keeps "cannot reach, retrying" for a process that does not answer', async () => {
      const t = withProbe('unreachable');
      const waiting = t.call('app.info', undefined);
      last().drop();
      expect(await waiting).toMatchObject({ ok: false, error: { message: 'Cannot reach the workbench process. Is it still running? (Retrying.)' } });
      expect(t.status()).toBe('disconnected');
      await vi.advanceTimersByTimeAsync(300);
      expect(sockets).toHaveLength(2);
    });
  });

  describe('setToken(): the newly printed link opened in this tab', () => {
    /** A transport whose probe says the process refuses every token but `accepted`. */
    function refusing(accepted: string): WsTransport {
      fresh('OLD', async (offered) => (offered === accepted ? 'ok' : 'unauthorized'));
      return transport;
    }

    it('reconnects at once with the new token after the old one was refused, and calls go through', async () => {
      const t = refusing('NEW');
      const statuses: string[] = [];
      t.onStatus((s) => statuses.push(s));
      last().drop();
      await vi.advanceTimersByTimeAsync(0);
      expect(t.status()).toBe('unauthorized');
      t.setToken('NEW');
      expect(sockets).toHaveLength(2);
      expect(last().protocols).toEqual(['workbench', 'token.NEW']);
      last().open();
      expect(t.status()).toBe('connected');
      expect(statuses).toEqual(['unauthorized', 'connecting', 'connected']);
      const reply = t.call('app.info', undefined);
      last().receive({ t: 'reply', id: 1, reply: ok('fresh') });
      expect(await reply).toEqual(ok('fresh'));
    });

    it('drops a live socket on the old token for the new one, failing what was in flight', async () => {
      last().open();
      const inFlight = transport.call('app.info', undefined);
      transport.setToken('NEWER');
      expect(await inFlight).toMatchObject({ ok: false, error: { code: 'network' } });
      expect(sockets[0]!.readyState).toBe(3);
      expect(last().protocols).toEqual(['workbench', 'token.NEWER']);
      expect(transport.status()).toBe('connecting');
    });

    it('does nothing for the token it already uses while connected', () => {
      last().open();
      transport.setToken('T0KEN');
      expect(sockets).toHaveLength(1);
      expect(transport.status()).toBe('connected');
    });

    it('skips the backoff wait while disconnected', async () => {
      last().open();
      last().drop();
      expect(transport.status()).toBe('disconnected');
      transport.setToken('T0KEN');
      expect(sockets).toHaveLength(2);
      expect(transport.status()).toBe('connecting');
    });

    it('ignores the probe of an attempt the new token replaced', async () => {
      let answer: (reach: 'unauthorized') => void = () => {};
      fresh('OLD', () => new Promise((resolve) => (answer = resolve)));
      last().drop();
      transport.setToken('NEW');
      last().open();
      answer('unauthorized');
      await vi.advanceTimersByTimeAsync(0);
      expect(transport.status()).toBe('connected');
    });
  });
});
