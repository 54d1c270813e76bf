// One contract suite, run over both transports: Electron IPC and browser mode (see harness.ts).
// The contract is the real one plus the test-only `probe` family (calls to cancel, sessions, bytes).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnectionsState } from '../../../shared/contract/connections';
import { WorkbenchFailure, type WorkbenchError } from '../../../shared/contract/errors';
import { SESSION_INBOUND_QUEUE, SESSION_SEND_WINDOW, SOCKET_HIGH_WATER_BYTES } from '../../../shared/contract/protocol';
import { FAKE_INFO, FAKE_STATE, SECRET_DETAIL, WAIT_FOR_CANCEL } from '../../unit/main/host/fake-handlers';
import { floodBytes, type ProbeChunk } from '../../unit/main/host/probe-family';
import { ipcHarness, until, wsHarness, type Harness } from './harness';

vi.mock('electron', async () => ({ ipcMain: (await import('./fake-electron')).fakeIpcMain }));

/** The rejection of `promise` (fails the test if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<WorkbenchFailure> {
  const outcome = await promise.then(
    () => null,
    (err: unknown) => err,
  );
  expect(outcome).toBeInstanceOf(WorkbenchFailure);
  return outcome as WorkbenchFailure;
}

const chat = (model: string) => ({ request: { model, messages: [{ role: 'user' as const, content: 'hi' }] } });

describe.each([
  ['Electron IPC', ipcHarness],
  ['browser-mode WebSocket', wsHarness],
])('contract over %s', (_name, makeHarness) => {
  let h: Harness;
  beforeEach(async () => {
    h = await makeHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('returns a call’s value', async () => {
    expect(await h.api.app.info()).toEqual(FAKE_INFO);
  });

  it('rejects invalid input with invalid_input and the failing fields', async () => {
    const err = await rejection(h.api.history.get({ id: '../etc/passwd' }));
    expect(err.error.code).toBe('invalid_input');
    expect(err.error.issues?.map((i) => i.path)).toEqual(['id']);
  });

  it('answers unknown_method for an operation main does not serve', async () => {
    const reply = await h.transport.call('files.shred', {});
    expect(reply.ok ? null : reply.error.code).toBe('unknown_method');
  });

  it('delivers stream chunks in order, then the result', async () => {
    const chunks: unknown[] = [];
    const handle = h.api.chat.send(chat('m'), (chunk) => chunks.push(chunk));
    const record = await handle.result;
    expect(record.status).toBe('completed');
    expect(chunks.map((c) => (c as { type: string; content?: string }).content ?? (c as { type: string }).type)).toEqual([
      'started',
      'a',
      'b',
      'c',
    ]);
  });

  it('rejects a stream with invalid input without starting it', async () => {
    const handle = h.api.chat.send({ request: { model: 'm', messages: [] } }, () => {});
    const err = await rejection(handle.result);
    expect(err.error).toMatchObject({ code: 'invalid_input', issues: [{ path: 'request.messages' }] });
    expect(h.signals).toHaveLength(0);
  });

  it('cancels: the handler’s signal aborts and the result is the cancelled record', async () => {
    let started!: () => void;
    const firstChunk = new Promise<void>((resolve) => (started = resolve));
    const handle = h.api.chat.send(chat(WAIT_FOR_CANCEL), () => started());
    await firstChunk;
    await handle.cancel();
    expect((await handle.result).status).toBe('cancelled');
    expect(h.signals[0].aborted).toBe(true);
  });

  it("refuses to cancel another window's stream", async () => {
    let started!: () => void;
    const firstChunk = new Promise<void>((resolve) => (started = resolve));
    const handle = h.api.chat.send(chat(WAIT_FOR_CANCEL), () => started());
    await firstChunk;
    expect(await h.other.streams.cancel({ streamId: handle.streamId })).toEqual({ cancelled: false });
    expect(h.signals[0].aborted).toBe(false);
    await handle.cancel();
    expect((await handle.result).status).toBe('cancelled');
  });

  it('delivers events to subscribers until they unsubscribe', async () => {
    const mine: ConnectionsState[] = [];
    const theirs: ConnectionsState[] = [];
    const off = h.api.connections.onChanged((state) => mine.push(state));
    h.other.connections.onChanged((state) => theirs.push(state));
    const first = { ...FAKE_STATE, activeId: 'one' };
    const second = { ...FAKE_STATE, activeId: 'two' };
    h.emit('connections.changed', first);
    // A round trip on each page: its reply travels behind the event.
    await Promise.all([h.api.app.info(), h.other.app.info()]);
    off();
    h.emit('connections.changed', second);
    await Promise.all([h.api.app.info(), h.other.app.info()]);
    expect(mine).toEqual([first]);
    expect(theirs).toEqual([first, second]);
  });

  it("passes a handler's WorkbenchError through as the rejection", async () => {
    const err = await rejection(h.api.connections.save({ name: 'x', baseUrl: 'https://api.example.com' }));
    expect(err.error).toEqual({ code: 'config', message: 'No key store is available on this system.' });
  });

  it('hides a crashing handler’s details behind a generic internal error', async () => {
    const err = await rejection(h.api.connections.remove({ id: 'abc' }));
    expect(err.error.code).toBe('internal');
    expect(err.message).not.toContain(SECRET_DETAIL);
  });
  // Every field of a WorkbenchError reaches the page: in Electron they cross contextBridge as
  // data (a rejected Error would arrive as its message alone, i.e. code 'internal').
  describe('errors keep code, status, request id and issues', () => {
    const unauthorized: WorkbenchError = {
      code: 'api_error',
      message: 'Incorrect API key provided.',
      status: 401,
      requestId: 'req-401',
      serviceCode: 'invalid-api-key',
    };
    const errors: WorkbenchError[] = [
      { code: 'cancelled', message: 'probe.fail was cancelled.' },
      unauthorized,
      {
        code: 'invalid_input',
        message: 'Two fields are wrong.',
        issues: [
          { path: 'request.model', message: 'Required' },
          { path: 'n', message: 'Too big' },
        ],
      },
    ];

    it.each(errors.map((error) => [error.code, error]))('a call rejected with %s', async (_code, error) => {
      const err = await rejection(h.api.probe.fail(error));
      expect(err.error).toEqual(error);
      expect(err.message).toBe(error.message);
    });

    it('a cancellable call (signal given, never aborted) rejected with api_error 401', async () => {
      const err = await rejection(h.api.probe.fail(unauthorized, { signal: new AbortController().signal }));
      expect(err.error).toEqual(unauthorized);
    });

    it('a stream’s result, after its chunk', async () => {
      const chunks: ProbeChunk[] = [];
      const err = await rejection(h.api.probe.failStream(unauthorized, (chunk) => chunks.push(chunk)).result);
      expect(err.error).toEqual(unauthorized);
      expect(chunks).toEqual([{ seq: 0 }]);
    });

    it('a session’s result, after a send it accepted', async () => {
      const session = h.api.probe.failSession(unauthorized, () => {});
      const failed = rejection(session.result);
      await session.send({ seq: 1 });
      expect((await failed).error).toEqual(unauthorized);
    });

    it('a session send main refuses (not_found once the session is gone)', async () => {
      const session = h.api.probe.failSession(unauthorized, () => {});
      const failed = rejection(session.result);
      await session.send({ seq: 1 });
      await failed;
      const err = await rejection(session.send({ seq: 2 }));
      expect(err.error.code).toBe('not_found');
      expect(err.error.message).not.toBe('');
    });
  });

  describe('cancellable calls', () => {
    it('aborts the handler’s signal and rejects with cancelled when the caller aborts', async () => {
      const controller = new AbortController();
      const pending = h.api.probe.wait({}, { signal: controller.signal });
      await until(() => h.probe.signals.length === 1, 'the handler to start');
      controller.abort();
      expect((await rejection(pending)).error.code).toBe('cancelled');
      await until(() => h.probe.signals[0].aborted, 'the cancel to reach main');
    });

    it('never starts a call whose signal is already aborted', async () => {
      const err = await rejection(h.api.probe.wait({}, { signal: AbortSignal.abort() }));
      expect(err.error.code).toBe('cancelled');
      await h.api.app.info();
      expect(h.probe.signals).toHaveLength(0);
    });

    it('aborts a page’s running calls when the page goes away', async () => {
      void h.api.probe.wait({}).catch(() => {});
      await until(() => h.probe.signals.length === 1, 'the handler to start');
      h.disconnect();
      await until(() => h.probe.signals[0].aborted, 'the call to be aborted');
    });
  });

  describe('sessions', () => {
    it('round-trips messages: each validated, an invalid one refused with the session still open', async () => {
      const chunks: ProbeChunk[] = [];
      const session = h.api.probe.echo({ label: 'round' }, (chunk) => chunks.push(chunk));
      await session.send({ seq: 1 });
      const refused = await rejection(session.send({ seq: -1 }));
      expect(refused.error).toMatchObject({ code: 'invalid_input', issues: [{ path: 'seq' }] });
      await session.send({ seq: 2 });
      await session.close();
      expect(await session.result).toEqual({ label: 'round', count: 2, bytes: 0 });
      expect(chunks).toEqual([{ seq: 1 }, { seq: 2 }]);
      expect(h.probe.iteratorDone).toEqual([true]);
    });

    it('refuses to open a session with invalid input', async () => {
      const session = h.api.probe.echo({ label: '' }, () => {});
      expect((await rejection(session.result)).error).toMatchObject({ code: 'invalid_input', issues: [{ path: 'label' }] });
      expect(h.probe.signals).toHaveLength(0);
    });

    it('lets only the page that opened a session send to, close or cancel it', async () => {
      const chunks: ProbeChunk[] = [];
      const session = h.api.probe.echo({ label: 'mine' }, (chunk) => chunks.push(chunk));
      await session.send({ seq: 1 });
      expect((await rejection(h.other.ops.send({ id: session.id, message: { seq: 9 } }))).error.code).toBe('not_found');
      expect((await rejection(h.other.ops.close({ id: session.id }))).error.code).toBe('not_found');
      expect(await h.other.ops.cancel({ id: session.id })).toEqual({ cancelled: false });
      expect(h.probe.signals[0].aborted).toBe(false);
      await session.send({ seq: 2 });
      await session.close();
      expect(await session.result).toMatchObject({ count: 2 });
      expect(chunks.map((c) => c.seq)).toEqual([1, 2]);
    });

    it('cancel aborts the handler, ends its messages and rejects the result with cancelled', async () => {
      const session = h.api.probe.sink({ turns: 0 }, () => {});
      await session.send({ seq: 1 });
      await session.cancel();
      // The sink returns normally once its iterator ends: the result is its own, after the abort.
      expect(await session.result).toMatchObject({ count: 1 });
      expect(h.probe.signals[0].aborted).toBe(true);
      expect(h.probe.iteratorDone).toEqual([true]);
      expect((await rejection(session.send({ seq: 2 }))).error.code).toBe('not_found');
    });

    it('cleans up when the page goes away: signal aborted, message iterator finished', async () => {
      const session = h.api.probe.echo({ label: 'gone' }, () => {});
      void session.result.catch(() => {});
      await session.send({ seq: 1 });
      h.disconnect();
      await until(() => h.probe.signals[0].aborted && h.probe.iteratorDone[0] === true, 'the session to be cleaned up');
    });
  });

  describe('typed events', () => {
    it('delivers a declared event to every page', async () => {
      const mine: Array<{ n: number }> = [];
      const theirs: Array<{ n: number }> = [];
      h.api.probe.onPinged((payload) => mine.push(payload));
      h.other.probe.onPinged((payload) => theirs.push(payload));
      h.emit('probe.pinged', { n: 1 });
      await Promise.all([h.api.app.info(), h.other.app.info()]);
      expect([mine, theirs]).toEqual([[{ n: 1 }], [{ n: 1 }]]);
      // Compile-time only (never run): an undeclared channel or a wrong payload does not type-check.
      const typeChecks = () => {
        // @ts-expect-error: not an event the contract declares
        h.emit('probe.nothing', { n: 1 });
        // @ts-expect-error: probe.pinged carries { n: number }
        h.emit('probe.pinged', { n: 'one' });
        // @ts-expect-error: a call is not an event
        h.emit('app.info', {});
      };
      expect(typeof typeChecks).toBe('function');
    });
  });

  describe('bytes', () => {
    it('carries Uint8Arrays both ways intact (binary frames in browser mode)', async () => {
      const payload = floodBytes(3, 256 * 1024);
      const chunks: ProbeChunk[] = [];
      const session = h.api.probe.echo({ label: 'bytes' }, (chunk) => chunks.push(chunk));
      await session.send({ seq: 1, data: payload });
      await session.close();
      expect(await session.result).toEqual({ label: 'bytes', count: 1, bytes: payload.byteLength });
      expect(chunks).toHaveLength(1);
      expect(chunks[0].data).toBeInstanceOf(Uint8Array);
      expect(Buffer.from(chunks[0].data!).equals(Buffer.from(payload.slice().reverse()))).toBe(true);
      if (h.frames) {
        // open (text), send (binary: it carries bytes), close (text); back: the chunk is binary.
        expect(h.frames.sent).toEqual(['text', 'binary', 'text']);
        expect(h.frames.received).toEqual(['binary', 'text', 'text', 'text']);
      }
    });

    it('a fast sender of 64 MiB waits for a slow session instead of piling messages up', async () => {
      const mib = 1024 * 1024;
      let maxAhead = 0;
      let maxBuffered = 0;
      h.probe.onConsume = () => {
        maxAhead = Math.max(maxAhead, h.sendsIssued() - h.probe.consumed);
        maxBuffered = Math.max(maxBuffered, h.socket?.().bufferedAmount ?? 0);
      };
      const session = h.api.probe.sink({ turns: 20 }, () => {});
      // The worst sender: every send at once, none awaited.
      const sends = Array.from({ length: 64 }, (_, seq) => session.send({ seq, data: floodBytes(seq, mib) }));
      await Promise.all(sends);
      await session.close();
      expect(await session.result).toEqual({ label: 'sink', count: 64, bytes: 64 * mib });
      // Handed to the transport but not yet read: the page's window plus main's queue (and the one being read).
      expect(maxAhead).toBeLessThanOrEqual(SESSION_SEND_WINDOW + SESSION_INBOUND_QUEUE + 1);
      expect(maxBuffered).toBeLessThanOrEqual(SOCKET_HIGH_WATER_BYTES + 2 * mib);
    });

    it('a session emitting 64 MiB to a page that stops reading waits for the socket to drain (IPC: for the page’s acknowledgements)', async () => {
      const mib = 1024 * 1024;
      const received: ProbeChunk[] = [];
      const socket = h.socket?.();
      socket?.pause();
      const resume = socket ? () => socket.resume() : h.pausePage?.();
      const session = h.api.probe.flood({ count: 64, size: mib }, (chunk) => received.push(chunk));
      if (resume) {
        await until(() => h.probe.emitted > 0, 'the flood to start');
        // Give main every chance to run ahead; with back-pressure it stops near the high-water mark.
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(h.probe.emitted).toBeLessThan(32);
        resume();
      }
      expect(await session.result).toEqual({ sent: 64 });
      expect(received.map((c) => c.seq)).toEqual(Array.from({ length: 64 }, (_, n) => n));
      expect(Buffer.from(received[63].data!).equals(Buffer.from(floodBytes(63, mib)))).toBe(true);
    });
  });
});
