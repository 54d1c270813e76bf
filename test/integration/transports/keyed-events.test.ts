// Events with an argument (define.ts `keyedEvent`), over both transports (see harness.ts): the
// subscription travels to main, so a page receives only the keys it follows.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WorkbenchFailure } from '../../../shared/contract/errors';
import { ipcHarness, until, wsHarness, type Harness } from './harness';

vi.mock('electron', async () => ({ ipcMain: (await import('./fake-electron')).fakeIpcMain }));

describe.each([
  ['Electron IPC', ipcHarness],
  ['browser-mode WebSocket', wsHarness],
])('keyed events over %s', (_name, makeHarness) => {
  let h: Harness;
  beforeEach(async () => {
    h = await makeHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  /** A round trip on each page: anything main sent before it has arrived. */
  const settle = () => Promise.all([h.api.app.info(), h.other.app.info()]);

  it('a subscriber to key A never gets key B’s events, and nothing for B crosses to it', async () => {
    const mine: number[] = [];
    const theirs: number[] = [];
    h.api.probe.onLevel('session-a', (p) => mine.push(p.n));
    h.other.probe.onLevel('session-b', (p) => theirs.push(p.n));
    await until(() => h.keyedSubscriptions() === 2, 'both subscriptions to reach main');
    h.emitKeyed('probe.level', 'session-a', { n: 1 });
    h.emitKeyed('probe.level', 'session-b', { n: 2 });
    h.emitKeyed('probe.level', 'session-c', { n: 3 });
    h.emitKeyed('probe.level', 'session-a', { n: 4 });
    await settle();
    expect(mine).toEqual([1, 4]);
    expect(theirs).toEqual([2]);
    // Filtered in main: the page under test was sent only its own key's events.
    expect(h.wireEvents.filter((e) => e.channel === 'probe.level')).toEqual([
      { channel: 'probe.level', key: 'session-a' },
      { channel: 'probe.level', key: 'session-a' },
    ]);
  });

  it('several listeners of one key share one subscription; it ends with the last', async () => {
    const first: number[] = [];
    const second: number[] = [];
    const offFirst = h.api.probe.onLevel('k', (p) => first.push(p.n));
    const offSecond = h.api.probe.onLevel('k', (p) => second.push(p.n));
    await until(() => h.keyedSubscriptions() === 1, 'the subscription');
    h.emitKeyed('probe.level', 'k', { n: 1 });
    await settle();
    offFirst();
    h.emitKeyed('probe.level', 'k', { n: 2 });
    await settle();
    expect(h.keyedSubscriptions()).toBe(1);
    offSecond();
    await until(() => h.keyedSubscriptions() === 0, 'the unsubscribe to reach main');
    h.emitKeyed('probe.level', 'k', { n: 3 });
    await settle();
    expect([first, second]).toEqual([[1], [1, 2]]);
    expect(h.wireEvents.filter((e) => e.channel === 'probe.level')).toHaveLength(2);
  });

  it('plain events are unchanged, and main refuses to subscribe to a channel that takes no key', async () => {
    const plain: number[] = [];
    h.api.probe.onPinged((p) => plain.push(p.n));
    h.emit('probe.pinged', { n: 7 });
    await settle();
    expect(plain).toEqual([7]);
    const refused = await h.api.ops.subscribe({ channel: 'probe.pinged', key: 'x' }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(WorkbenchFailure);
    expect((refused as WorkbenchFailure).error).toMatchObject({ code: 'invalid_input', issues: [{ path: 'channel' }] });
    // Compile-time only: a keyed event needs its key, a plain one takes none.
    const typeChecks = () => {
      // @ts-expect-error: probe.level is keyed
      h.emit('probe.level', { n: 1 });
      // @ts-expect-error: probe.pinged takes no key
      h.emitKeyed('probe.pinged', 'k', { n: 1 });
      // @ts-expect-error: the payload is { n: number }
      h.emitKeyed('probe.level', 'k', { n: 'one' });
      // @ts-expect-error: a keyed subscription needs its key
      h.api.probe.onLevel(() => {});
    };
    expect(typeof typeChecks).toBe('function');
  });

  it('a page that goes away or reloads loses its subscriptions in main; the new page subscribes again', async () => {
    const old: number[] = [];
    h.api.probe.onLevel('k', (p) => old.push(p.n));
    await until(() => h.keyedSubscriptions() === 1, 'the subscription');
    const page = await h.reload();
    await until(() => h.keyedSubscriptions() === 0, 'main to forget the old page’s subscription');
    const fresh: number[] = [];
    page.probe.onLevel('k', (p) => fresh.push(p.n));
    await until(() => h.keyedSubscriptions() === 1, 'the new page’s subscription');
    h.emitKeyed('probe.level', 'k', { n: 1 });
    await page.app.info();
    expect(fresh).toEqual([1]);
    expect(old).toEqual([]);
  });

  it('browser mode: a dropped socket subscribes again on the new one', async () => {
    if (!h.dropSocket) return;
    const got: number[] = [];
    h.api.probe.onLevel('k', (p) => got.push(p.n));
    await until(() => h.keyedSubscriptions() === 1, 'the subscription');
    h.dropSocket();
    await until(() => h.statuses!.includes('disconnected'), 'the drop');
    await until(() => h.statuses!.at(-1) === 'connected', 'the new socket');
    // Until main has the new socket's subscription (the old one goes when main sees the drop).
    for (let n = 1; got.length === 0 && n < 1000; n++) {
      h.emitKeyed('probe.level', 'k', { n });
      await settle();
    }
    expect(got).toHaveLength(1);
    expect(h.keyedSubscriptions()).toBe(1);
  });
});
