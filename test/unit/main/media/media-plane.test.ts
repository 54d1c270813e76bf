import { afterEach, describe, expect, it, vi } from 'vitest';
import { MediaPlane, type MediaChild, type MediaPlaneEvent } from '../../../../main/media/media-plane';
import type { ToMedia } from '../../../../main/media/protocol';

/** A scripted media process: answers `configure` and `start` unless told otherwise. */
function fakeChild(options: { answer?: boolean } = {}) {
  const sent: ToMedia[] = [];
  let onMessage: (m: unknown) => void = () => {};
  let onExit: (code: number | null, signal: string | null) => void = () => {};
  const child: MediaChild & { sent: ToMedia[]; say(m: unknown): void; exit(code: number | null, signal?: string | null): void; killed: boolean } = {
    sent,
    killed: false,
    postMessage(message) {
      sent.push(message);
      if (options.answer === false) return;
      if (message.t === 'configure') queueMicrotask(() => onMessage({ t: 'reply', id: message.id, reply: { ok: true, value: { frameServer: { port: 5555, token: 'tok' } } } }));
      if (message.t === 'start') queueMicrotask(() => onMessage({ t: 'reply', id: message.id, reply: { ok: true, value: { sessionId: message.sessionId, kind: message.kind, streams: { out: 1 } } } }));
      if (message.t === 'shutdown') queueMicrotask(() => onExit(0, null));
    },
    onMessage: (l) => void (onMessage = l),
    onExit: (l) => void (onExit = l),
    kill() {
      child.killed = true;
    },
    say: (m) => onMessage(m),
    exit: (code, signal = null) => onExit(code, signal),
  };
  return child;
}

function setup(answer = true) {
  const children: ReturnType<typeof fakeChild>[] = [];
  const log = vi.fn();
  const events: MediaPlaneEvent[] = [];
  const plane = new MediaPlane({
    launch: () => {
      const c = fakeChild({ answer });
      children.push(c);
      queueMicrotask(() => c.say({ t: 'ready', pid: 100 + children.length }));
      return c;
    },
    log,
    transport: { kind: 'websocket', origins: () => ['http://127.0.0.1:1'] },
    restart: { initialDelayMs: 100, maxDelayMs: 400, maxCrashes: 3, windowMs: 60_000 },
    requestTimeoutMs: 1000,
  });
  plane.onEvent((e) => events.push(e));
  return { plane, children, log, events };
}

afterEach(() => vi.useRealTimers());

describe('MediaPlane', () => {
  it('configures the process with the page origins and answers the channel', async () => {
    const { plane, children } = setup();
    expect(await plane.channel()).toEqual({ ok: true, value: { transport: 'websocket', url: 'ws://127.0.0.1:5555/media', token: 'tok' } });
    expect(children[0].sent[0]).toMatchObject({ t: 'configure', config: { frameServer: { origins: ['http://127.0.0.1:1'], port: 0 } } });
    expect(plane.pid).toBe(101);
  });

  it('a crash fails what waited, ends sessions with a reason, restarts after a delay on the same port', async () => {
    vi.useFakeTimers();
    const { plane, children, events } = setup();
    await plane.start();
    expect((await plane.startSession('s1', 'synthetic', {})).ok).toBe(true);
    const pending = plane.stopSession('s1');
    children[0].exit(null, 'SIGKILL');
    expect(await pending).toMatchObject({ ok: false, error: { code: 'internal', message: expect.stringContaining('signal SIGKILL') } });
    expect(events).toEqual([
      { type: 'session-ended', sessionId: 's1', error: { code: 'internal', message: expect.stringContaining('this media session ended') } },
      { type: 'crashed', code: null, signal: 'SIGKILL', restarting: true },
    ]);
    expect(plane.status).toBe('restarting');
    // A request made meanwhile waits for the restart instead of launching one of its own.
    const channel = plane.channel();
    await vi.advanceTimersByTimeAsync(99);
    expect(children).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await channel).toMatchObject({ ok: true });
    expect(children).toHaveLength(2);
    expect(children[1].sent[0]).toMatchObject({ t: 'configure', config: { frameServer: { port: 5555 } } });
    expect(events.at(-1)).toEqual({ type: 'restarted' });
  });

  it('stays down after maxCrashes within the window, and says why', async () => {
    vi.useFakeTimers();
    const { plane, children, events } = setup();
    await plane.start();
    for (let i = 0; i < 3; i++) {
      children[i].exit(70);
      await vi.advanceTimersByTimeAsync(1000);
    }
    expect(children).toHaveLength(3);
    expect(plane.status).toBe('failed');
    expect(events.filter((e) => e.type === 'crashed').map((e) => (e as { restarting: boolean }).restarting)).toEqual([true, true, false]);
    expect(await plane.channel()).toMatchObject({ ok: false, error: { code: 'internal', message: expect.stringContaining('no longer restarted') } });
  });

  it('a request the process never answers fails as a timeout value', async () => {
    vi.useFakeTimers();
    const { plane } = setup(false);
    const started = plane.start();
    await vi.advanceTimersByTimeAsync(1000);
    expect(await started).toMatchObject({ ok: false, error: { code: 'timeout', message: expect.stringContaining('configure') } });
  });

  it('ignores and logs malformed messages; hands session events and ends to listeners', async () => {
    const { plane, children, log, events } = setup();
    await plane.start();
    children[0].say({ t: 'reply', id: 'x' });
    children[0].say({ t: 'event', sessionId: 's', type: 'level', at: 5, data: { rms: 0.1 } });
    children[0].say({ t: 'ended', sessionId: 's', error: { code: 'network', message: 'The service socket closed.' } });
    children[0].say({ t: 'log', line: '[media] hello' });
    expect(log).toHaveBeenCalledWith(expect.stringContaining('ignored a malformed message'));
    expect(log).toHaveBeenCalledWith('[media] hello');
    expect(events).toEqual([
      { type: 'session-event', sessionId: 's', event: 'level', at: 5, data: { rms: 0.1 } },
      { type: 'session-ended', sessionId: 's', error: { code: 'network', message: 'The service socket closed.' } },
    ]);
  });

  it('dispose asks the process to shut down, and kills one that does not', async () => {
    const { plane, children } = setup();
    await plane.start();
    await plane.dispose();
    expect(children[0].sent.at(-1)).toEqual({ t: 'shutdown' });
    expect(children[0].killed).toBe(false);

    vi.useFakeTimers();
    const stuck = setup(true);
    await stuck.plane.start();
    stuck.children[0].postMessage = (m) => void stuck.children[0].sent.push(m);
    const disposing = stuck.plane.dispose();
    await vi.advanceTimersByTimeAsync(2000);
    await disposing;
    expect(stuck.children[0].killed).toBe(true);
  });
});
