import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { createHost } from '../../../../main/host/host';
import { decodeBinaryFrame, encodeBinaryFrame } from '../../../../shared/contract/binary-frame';
import { attachSocket } from '../../../../main/host/ws-session';
import { createFakeHandlers, WAIT_FOR_CANCEL } from './fake-handlers';
import { testContract } from './probe-family';

class FakeSocket extends EventEmitter {
  readyState = 1;
  /** What the socket holds unsent; the test sets it to play a slow page. */
  bufferedAmount = 0;
  readonly sent: Array<Record<string, unknown>> = [];
  readonly binary: boolean[] = [];
  /** Write callbacks ws would call once the data reached the kernel. */
  readonly written: Array<() => void> = [];
  send(data: string | Uint8Array, options?: { binary?: boolean }, cb?: () => void) {
    this.binary.push(options?.binary === true);
    this.sent.push((typeof data === 'string' ? JSON.parse(data) : decodeBinaryFrame(data)) as Record<string, unknown>);
    if (cb) this.written.push(cb);
  }
  /** Simulates a frame from the page (a text frame unless `isBinary`). */
  receive(message: unknown, isBinary = false) {
    const data = message instanceof Uint8Array ? Buffer.from(message) : Buffer.from(typeof message === 'string' ? message : JSON.stringify(message));
    this.emit('message', data, isBinary);
  }
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const chat = (model: string) => ({ request: { model, messages: [{ role: 'user', content: 'hi' }] } });

function setup(handlers = createFakeHandlers()) {
  const host = createHost({ contract: testContract, handlers: handlers.handlers });
  const socket = new FakeSocket();
  attachSocket(host, socket as unknown as WebSocket, { id: 'tab-1', log: () => {} });
  return { host, socket, signals: handlers.signals, sessions: handlers.sessions, probe: handlers.probe };
}

describe('ws-session', () => {
  describe('attachSocket()', () => {
    it('answers calls by id, as this tab’s session', async () => {
      const { socket, sessions } = setup();
      socket.receive({ t: 'call', id: 4, method: 'app.info' });
      await settle();
      expect(socket.sent).toMatchObject([{ t: 'reply', id: 4, reply: { ok: true } }]);
      expect(sessions).toEqual(['tab-1']);
    });

    it('sends chunks and then the end, tagged with the stream id', async () => {
      const { socket } = setup();
      socket.receive({ t: 'stream', id: 1, method: 'chat.send', input: chat('m'), streamId: 'stream-0001' });
      await settle();
      expect(socket.sent.map((m) => m.t)).toEqual(['chunk', 'chunk', 'chunk', 'chunk', 'end']);
      expect(socket.sent.every((m) => m.streamId === 'stream-0001')).toBe(true);
    });

    it('cancels the tab’s streams when its socket closes', async () => {
      const { socket, signals } = setup();
      socket.receive({ t: 'stream', id: 1, method: 'chat.send', input: chat(WAIT_FOR_CANCEL), streamId: 'stream-0001' });
      await settle();
      socket.readyState = 3;
      socket.emit('close');
      expect(signals[0].aborted).toBe(true);
    });

    it('stops delivering events after the socket closes', () => {
      const { host, socket } = setup();
      host.emit('probe.pinged', { n: 1 });
      socket.emit('close');
      host.emit('probe.pinged', { n: 2 });
      expect(socket.sent).toEqual([{ t: 'event', channel: 'probe.pinged', payload: { n: 1 } }]);
    });

    it('reads bytes from a binary frame and answers a malformed one with invalid_input', async () => {
      const { socket, probe } = setup();
      socket.receive({ t: 'stream', id: 1, method: 'probe.echo', input: { label: 'x' }, streamId: 'session-0001' });
      socket.receive(encodeBinaryFrame({ t: 'call', id: 2, method: 'ops.send', input: { id: 'session-0001', message: { seq: 7, data: new Uint8Array([1, 2, 3]) } } }), true);
      await settle();
      socket.receive(new Uint8Array([0, 0, 0, 9, 1]), true);
      await settle();
      expect(probe.signals).toHaveLength(1);
      expect(socket.sent).toEqual([
        { t: 'chunk', streamId: 'session-0001', chunk: { seq: 7, data: new Uint8Array([3, 2, 1]) } },
        { t: 'reply', id: 2, reply: { ok: true, value: null } },
        { t: 'reply', id: -1, reply: { ok: false, error: { code: 'invalid_input', message: 'The binary frame header is longer than the frame.' } } },
      ]);
      // The chunk carried bytes, so it went as a binary frame; the replies as text.
      expect(socket.binary).toEqual([true, false, false]);
    });

    it('holds a session emit while the socket is above its high-water mark, until a write drains it', async () => {
      const { socket, probe } = setup();
      socket.bufferedAmount = 64 * 1024 * 1024;
      socket.receive({ t: 'stream', id: 1, method: 'probe.flood', input: { count: 3, size: 4 }, streamId: 'session-0001' });
      await settle();
      expect(probe.emitted).toBe(0);
      expect(socket.sent).toHaveLength(1);
      socket.bufferedAmount = 0;
      for (const written of socket.written.splice(0)) written();
      await settle();
      expect(probe.emitted).toBe(3);
      expect(socket.sent.map((m) => m.t)).toEqual(['chunk', 'chunk', 'chunk', 'end']);
    });

    it('lets a cancelled session handler go on even while the socket stays full', async () => {
      const { socket, probe } = setup();
      socket.bufferedAmount = 64 * 1024 * 1024;
      socket.receive({ t: 'stream', id: 1, method: 'probe.flood', input: { count: 3, size: 4 }, streamId: 'session-0001' });
      await settle();
      expect(probe.emitted).toBe(0);
      socket.receive({ t: 'call', id: 2, method: 'ops.cancel', input: { id: 'session-0001' } });
      await settle();
      expect(probe.emitted).toBe(1);
      expect(socket.sent.filter((m) => m.t !== 'chunk')).toEqual([
        { t: 'end', streamId: 'session-0001', reply: { ok: true, value: { sent: 1 } } },
        { t: 'reply', id: 2, reply: { ok: true, value: { cancelled: true } } },
      ]);
    });

    it('answers with an internal error when a value cannot be encoded', async () => {
      const fake = createFakeHandlers();
      fake.handlers.history.facets = () => ({ models: [], big: 1n }) as unknown as { models: string[] };
      const { socket } = setup(fake);
      socket.receive({ t: 'call', id: 9, method: 'history.facets' });
      await settle();
      expect(socket.sent).toMatchObject([{ t: 'reply', id: 9, reply: { ok: false, error: { code: 'internal' } } }]);
    });
  });
});
