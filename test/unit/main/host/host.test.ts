import { describe, expect, it, vi } from 'vitest';
import { contract } from '../../../../shared/contract/index';
import { createHost, type HostSession } from '../../../../main/host/host';
import { createFakeHandlers, FAKE_INFO, SECRET_DETAIL, WAIT_FOR_CANCEL } from './fake-handlers';

function fakeSession(id: string) {
  const chunks: Array<{ streamId: string; chunk: unknown }> = [];
  const events: Array<{ channel: string; payload: unknown }> = [];
  const session: HostSession = {
    id,
    sendChunk: (streamId, chunk) => chunks.push({ streamId, chunk }),
    sendEvent: (channel, payload) => events.push({ channel, payload }),
  };
  return { session, chunks, events };
}

function setup() {
  const fake = createFakeHandlers();
  const log = vi.fn<(line: string) => void>();
  const host = createHost({ contract, handlers: fake.handlers, log });
  return { ...fake, host, log };
}

const chatInput = (model: string) => ({ request: { model, messages: [{ role: 'user', content: 'hi' }] } });
/** Lets pending handler continuations run (no timers involved). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('host', () => {
  describe('call()', () => {
    it('returns the handler value and tells the handler which session asked', async () => {
      const { host, sessions } = setup();
      expect(await host.call(fakeSession('s1').session, 'app.info', undefined)).toEqual({ ok: true, value: FAKE_INFO });
      expect(sessions).toEqual(['s1']);
    });

    it('answers invalid_input with each failing field when the schema refuses the input', async () => {
      const { host } = setup();
      const reply = await host.call(fakeSession('s1').session, 'connections.save', { name: '', baseUrl: 'ftp://x', extra: 1 });
      expect(reply.ok).toBe(false);
      if (reply.ok) return;
      expect(reply.error.code).toBe('invalid_input');
      expect(reply.error.message).toMatch(/^Invalid input for connections\.save: /);
      expect(reply.error.issues?.map((i) => i.path).sort()).toEqual(['', 'baseUrl', 'name']);
    });

    it('answers unknown_method for a channel the contract does not declare', async () => {
      const { host } = setup();
      const reply = await host.call(fakeSession('s1').session, 'files.delete', {});
      expect(reply).toEqual({ ok: false, error: { code: 'unknown_method', message: 'There is no operation named "files.delete".' } });
    });

    it('refuses to run a stream operation as a call', async () => {
      const { host, signals } = setup();
      const reply = await host.call(fakeSession('s1').session, 'chat.send', chatInput('m'));
      expect(reply.ok ? null : reply.error.code).toBe('unknown_method');
      expect(signals).toHaveLength(0);
    });

    it("passes a handler's WorkbenchFailure through unchanged", async () => {
      const { host } = setup();
      const reply = await host.call(fakeSession('s1').session, 'connections.save', { name: 'x', baseUrl: 'https://a.example' });
      expect(reply).toEqual({ ok: false, error: { code: 'config', message: 'No key store is available on this system.' } });
    });

    it('turns any other throw into a generic internal error and logs the detail', async () => {
      const { host, log } = setup();
      const reply = await host.call(fakeSession('s1').session, 'connections.remove', { id: 'abc' });
      expect(reply.ok ? null : reply.error.code).toBe('internal');
      expect(JSON.stringify(reply)).not.toContain(SECRET_DETAIL);
      expect(log.mock.calls.map((c) => c[0]).join('\n')).toContain(SECRET_DETAIL);
    });

    it('names where the log is in an internal error', async () => {
      const host = createHost({ contract, handlers: createFakeHandlers().handlers, log: () => {}, logPath: '/data/logs/workbench.log' });
      const reply = await host.call(fakeSession('s1').session, 'connections.remove', { id: 'abc' });
      expect(reply).toEqual({
        ok: false,
        error: {
          code: 'internal',
          message: 'The workbench hit an internal error while handling connections.remove. The details are in its log (/data/logs/workbench.log).',
        },
      });
    });
  });

  describe('stream()', () => {
    it('sends the chunks in order to the calling session, then resolves with the result', async () => {
      const { host } = setup();
      const s = fakeSession('s1');
      const reply = await host.stream(s.session, 'chat.send', chatInput('m'), 'stream-0001');
      expect(reply.ok && (reply.value as { status: string }).status).toBe('completed');
      expect(s.chunks.map((c) => [c.streamId, (c.chunk as { type: string; content?: string }).content ?? 'started'])).toEqual([
        ['stream-0001', 'started'],
        ['stream-0001', 'a'],
        ['stream-0001', 'b'],
        ['stream-0001', 'c'],
      ]);
    });

    it('refuses a malformed stream id and a stream id already running in the session', async () => {
      const { host } = setup();
      const s = fakeSession('s1');
      expect((await host.stream(s.session, 'chat.send', chatInput('m'), 'x')).ok).toBe(false);
      const first = host.stream(s.session, 'chat.send', chatInput(WAIT_FOR_CANCEL), 'stream-0001');
      const dup = await host.stream(s.session, 'chat.send', chatInput('m'), 'stream-0001');
      expect(dup.ok ? null : dup.error).toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/already in use/) });
      await host.call(s.session, 'streams.cancel', { streamId: 'stream-0001' });
      expect((await first).ok).toBe(true);
    });

    it('does not start the handler when the input is invalid', async () => {
      const { host, signals } = setup();
      const reply = await host.stream(fakeSession('s1').session, 'chat.send', { request: { model: 'm', messages: [] } }, 'stream-0001');
      expect(reply.ok ? null : reply.error.issues).toEqual([{ path: 'request.messages', message: 'add at least one message' }]);
      expect(signals).toHaveLength(0);
    });
  });

  describe('streams.cancel', () => {
    it("aborts the handler's signal and the stream resolves with the handler's cancelled record", async () => {
      const { host, signals } = setup();
      const s = fakeSession('s1');
      const running = host.stream(s.session, 'chat.send', chatInput(WAIT_FOR_CANCEL), 'stream-0001');
      await settle();
      expect(await host.call(s.session, 'streams.cancel', { streamId: 'stream-0001' })).toEqual({ ok: true, value: { cancelled: true } });
      expect(signals[0].aborted).toBe(true);
      const reply = await running;
      expect(reply.ok && (reply.value as { status: string }).status).toBe('cancelled');
      expect(await host.call(s.session, 'streams.cancel', { streamId: 'stream-0001' })).toEqual({ ok: true, value: { cancelled: false } });
    });

    it("refuses to cancel another session's stream", async () => {
      const { host, signals } = setup();
      const a = fakeSession('a');
      const running = host.stream(a.session, 'chat.send', chatInput(WAIT_FOR_CANCEL), 'stream-0001');
      await settle();
      expect(await host.call(fakeSession('b').session, 'streams.cancel', { streamId: 'stream-0001' })).toEqual({
        ok: true,
        value: { cancelled: false },
      });
      expect(signals[0].aborted).toBe(false);
      await host.call(a.session, 'streams.cancel', { streamId: 'stream-0001' });
      await running;
    });
  });

  describe('attach()', () => {
    it('delivers events to attached sessions only, and detaching cancels that session’s streams', async () => {
      const { host, signals } = setup();
      const a = fakeSession('a');
      const b = fakeSession('b');
      const detachA = host.attach(a.session);
      host.attach(b.session);
      host.emit('connections.changed', { n: 1 });
      const running = host.stream(a.session, 'chat.send', chatInput(WAIT_FOR_CANCEL), 'stream-0001');
      await settle();
      detachA();
      host.emit('connections.changed', { n: 2 });
      expect(signals[0].aborted).toBe(true);
      expect((await running).ok).toBe(true);
      expect(a.events).toEqual([{ channel: 'connections.changed', payload: { n: 1 } }]);
      expect(b.events.map((e) => e.payload)).toEqual([{ n: 1 }, { n: 2 }]);
    });

    it('keeps delivering to other sessions when one of them throws', () => {
      const { host, log } = setup();
      const ok = fakeSession('ok');
      host.attach({ id: 'broken', sendChunk: () => {}, sendEvent: () => { throw new Error('socket gone'); } });
      host.attach(ok.session);
      host.emit('connections.changed', 1);
      expect(ok.events).toHaveLength(1);
      expect(log).toHaveBeenCalledWith(expect.stringContaining('socket gone'));
    });
  });

  describe('dispose()', () => {
    it('cancels every running stream', async () => {
      const { host, signals } = setup();
      const running = host.stream(fakeSession('a').session, 'chat.send', chatInput(WAIT_FOR_CANCEL), 'stream-0001');
      await settle();
      host.dispose();
      expect(signals[0].aborted).toBe(true);
      await running;
    });
  });
});
