import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { contract } from '../../../../shared/contract/index';
import { createHost } from '../../../../main/host/host';
import { attachSocket } from '../../../../main/host/ws-session';
import { createFakeHandlers, WAIT_FOR_CANCEL } from './fake-handlers';

class FakeSocket extends EventEmitter {
  readyState = 1;
  readonly sent: Array<Record<string, unknown>> = [];
  send(text: string) {
    this.sent.push(JSON.parse(text));
  }
  /** Simulates a text frame from the page. */
  receive(message: unknown, isBinary = false) {
    this.emit('message', Buffer.from(typeof message === 'string' ? message : JSON.stringify(message)), isBinary);
  }
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const chat = (model: string) => ({ request: { model, messages: [{ role: 'user', content: 'hi' }] } });

function setup(handlers = createFakeHandlers()) {
  const host = createHost({ contract, handlers: handlers.handlers });
  const socket = new FakeSocket();
  attachSocket(host, socket as unknown as WebSocket, { id: 'tab-1', log: () => {} });
  return { host, socket, signals: handlers.signals, sessions: handlers.sessions };
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
      host.emit('connections.changed', 1);
      socket.emit('close');
      host.emit('connections.changed', 2);
      expect(socket.sent).toEqual([{ t: 'event', channel: 'connections.changed', payload: 1 }]);
    });

    it('refuses binary frames', () => {
      const { socket } = setup();
      socket.receive('x', true);
      expect(socket.sent).toMatchObject([{ t: 'reply', id: -1, reply: { ok: false, error: { code: 'invalid_input' } } }]);
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
