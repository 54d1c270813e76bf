// The contract suite's live sessions, over both transports (see harness.ts): sessions owned by
// main that outlive a window's attachment, a reload and (browser mode) a dropped socket.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveAttachChunk, LiveSessionSummary } from '../../../shared/contract/live';
import { WorkbenchFailure } from '../../../shared/contract/errors';
import { finalised, TICKER_SERVICE_ERROR, type TickerSnapshot } from '../../unit/main/live/ticker-kind';
import { ipcHarness, until, wsHarness, type Harness } from './harness';

vi.mock('electron', async () => ({ ipcMain: (await import('./fake-electron')).fakeIpcMain }));

async function rejection(promise: Promise<unknown>): Promise<WorkbenchFailure> {
  const outcome = await promise.then(() => null, (err: unknown) => err);
  expect(outcome).toBeInstanceOf(WorkbenchFailure);
  return outcome as WorkbenchFailure;
}

const eventSeqs = (chunks: LiveAttachChunk[]) => chunks.flatMap((c) => (c.type === 'event' ? [c.seq] : []));
const snapshots = (chunks: LiveAttachChunk[]) => chunks.flatMap((c) => (c.type === 'snapshot' ? [c] : []));
const ticks = (chunks: LiveAttachChunk[]) => chunks.flatMap((c) => (c.type === 'event' ? [(c.event as { n: number }).n] : []));
const lastSeq = (chunks: LiveAttachChunk[]) => {
  const last = chunks.at(-1);
  return last && (last.type === 'event' || last.type === 'snapshot') ? last.seq : -1;
};
const ticker = (label: string, intervalMs = 0) => ({ kind: 'test-ticker', input: { label, intervalMs } });

describe.each([
  ['Electron IPC', ipcHarness],
  ['browser-mode WebSocket', wsHarness],
])('live sessions over %s', (_name, makeHarness) => {
  let h: Harness;
  beforeEach(async () => {
    h = await makeHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('a window starts a session, attaches (snapshot, then numbered events) and stops it; every window hears of it', async () => {
    const theirs: LiveSessionSummary[] = [];
    h.other.live.onChanged((s) => theirs.push(s));
    const { id } = await h.api.live.start(ticker('one'));
    const chunks: LiveAttachChunk[] = [];
    const attachment = h.api.live.attach({ id }, (c) => chunks.push(c));
    await attachment.send({ type: 'tick', count: 3 });
    await until(() => eventSeqs(chunks).length === 3, 'three ticks');
    expect(chunks[0]).toMatchObject({ type: 'snapshot', seq: 0, session: { id, origin: 'window', status: 'running', state: 'ticking' } });
    expect(eventSeqs(chunks)).toEqual([1, 2, 3]);
    expect(ticks(chunks)).toEqual([1, 2, 3]);
    const ended = await h.api.live.stop({ id });
    expect(ended).toMatchObject({ id, status: 'ended', endReason: 'stopped' });
    expect(await attachment.result).toEqual(ended);
    expect(finalised.filter((f) => f.id === id)).toEqual([{ id, reason: 'stopped', count: 3 }]);
    expect(await h.api.live.list()).toEqual([]);
    await h.other.app.info();
    expect(theirs.filter((s) => s.id === id).at(-1)).toEqual(ended);
  });

  it('refuses an input or a control message the kind’s schema refuses, the attachment staying open', async () => {
    expect((await rejection(h.api.live.start({ kind: 'test-ticker', input: { label: '', intervalMs: 0 } }))).error).toMatchObject({
      code: 'invalid_input',
      issues: [{ path: 'label' }],
    });
    expect((await rejection(h.api.live.start({ kind: 'no-such-kind', input: {} }))).error.code).toBe('invalid_input');
    const { id } = await h.api.live.start(ticker('two'));
    const chunks: LiveAttachChunk[] = [];
    const attachment = h.api.live.attach({ id }, (c) => chunks.push(c));
    void attachment.result.catch(() => {});
    expect((await rejection(attachment.send({ type: 'tick', count: 0 }))).error).toMatchObject({ code: 'invalid_input', issues: [{ path: 'count' }] });
    // Valid for the schema, refused by the kind: reported as an error chunk.
    await attachment.send({ type: 'fail' });
    await attachment.send({ type: 'tick', count: 1 });
    await until(() => eventSeqs(chunks).length === 1, 'the tick');
    expect(chunks.map((c) => c.type)).toEqual(['snapshot', 'error', 'event']);
  });

  it('a session that fails to start reaches the page with its own error (code, status, message, request id), not internal', async () => {
    const refused = await rejection(h.api.live.start({ kind: 'test-ticker', input: { label: 'refused', intervalMs: 0, failStart: 'service' } }));
    expect(refused.error).toEqual(TICKER_SERVICE_ERROR);
    // Every window hears it ended failed, with the same error.
    await until(() => h.liveChanges.some((s) => s.endReason === 'failed'), 'the failed summary');
    expect(h.liveChanges.find((s) => s.endReason === 'failed')).toMatchObject({ status: 'ended', error: TICKER_SERVICE_ERROR });
    // A crash is `internal`, pointing at the log, and its details (a path here) stay in main.
    const crashed = await rejection(h.api.live.start({ kind: 'test-ticker', input: { label: 'crash', intervalMs: 0, failStart: 'crash' } }));
    expect(crashed.error).toEqual({ code: 'internal', message: 'Starting the test-ticker session failed. The details are in the workbench\'s log.' });
    expect(await h.api.live.list()).toEqual([]);
  });

  it('detaching (cancel, or the window going away) never stops the session; attaching again gives a fresh snapshot', async () => {
    const { id } = await h.api.live.start(ticker('three', 1));
    const first: LiveAttachChunk[] = [];
    const attachment = h.api.live.attach({ id }, (c) => first.push(c));
    await until(() => eventSeqs(first).length >= 2, 'ticks while attached');
    await attachment.cancel();
    expect(await attachment.result).toMatchObject({ id, status: 'running' });
    const seenBefore = Math.max(...eventSeqs(first));
    // No window attached: it keeps ticking in main (watched from main's side).
    let inMain = 0;
    const watcher = await h.live.attach(id, { deliver: (c) => void (c.type === 'event' && (inMain = c.seq)), ended: () => {} });
    await until(() => inMain > seenBefore + 3, 'ticks with no window');
    watcher.detach();
    const second: LiveAttachChunk[] = [];
    const again = h.api.live.attach({ id }, (c) => second.push(c));
    await until(() => eventSeqs(second).length >= 1, 'a tick after re-attaching');
    const snap = snapshots(second)[0];
    expect(snap.seq).toBeGreaterThan(seenBefore + 3);
    expect((snap.snapshot as TickerSnapshot).count).toBe(snap.seq);
    expect(eventSeqs(second)[0]).toBe(snap.seq + 1);
    // The window goes away: the session still runs.
    void again.result.catch(() => {});
    h.disconnect();
    await until(() => h.live.summary(id)?.attachments === 0, 'the attachment to end with the window');
    expect(h.live.summary(id)).toMatchObject({ status: 'running' });
  });

  it('a reload re-attaches: the new page gets the snapshot and the counter goes on with no gap', async () => {
    const { id } = await h.api.live.start(ticker('four'));
    const before: LiveAttachChunk[] = [];
    const attachment = h.api.live.attach({ id }, (c) => before.push(c));
    void attachment.result.catch(() => {});
    await attachment.send({ type: 'tick', count: 4 });
    await until(() => eventSeqs(before).length === 4, 'four ticks');
    const page = await h.reload();
    await until(() => h.live.summary(id)?.attachments === 0, 'the old page’s attachment to end');
    expect(h.live.summary(id)).toMatchObject({ status: 'running' });
    const after: LiveAttachChunk[] = [];
    const reattached = page.live.attach({ id }, (c) => after.push(c));
    await reattached.send({ type: 'tick', count: 2 });
    await until(() => eventSeqs(after).length === 2, 'two ticks after the reload');
    expect(snapshots(after)).toHaveLength(1);
    expect(snapshots(after)[0]).toMatchObject({ seq: 4, snapshot: { label: 'four', count: 4, recent: [1, 2, 3, 4] } });
    expect(eventSeqs(after)).toEqual([5, 6]);
    await page.live.stop({ id });
  });

  it('a session started by main with no window is listed, attachable and stopped explicitly', async () => {
    const id = await h.live.start('test-ticker', { label: 'incoming', intervalMs: 0 }, { origin: 'main' });
    expect(await h.api.live.list()).toEqual([expect.objectContaining({ id, origin: 'main', status: 'running', attachments: 0 })]);
    const chunks: LiveAttachChunk[] = [];
    const attachment = h.api.live.attach({ id }, (c) => chunks.push(c));
    await attachment.send({ type: 'tick', count: 1 });
    await until(() => eventSeqs(chunks).length === 1, 'a tick');
    expect(snapshots(chunks)[0].session).toMatchObject({ origin: 'main', attachments: 1 });
    await h.api.live.stop({ id });
    expect(await attachment.result).toMatchObject({ endReason: 'stopped' });
    expect((await rejection(h.api.live.attach({ id }, () => {}).result)).error.code).toBe('not_found');
  });

  it('quitting ends every session through its finaliser, attachments told why', async () => {
    const a = await h.api.live.start(ticker('five'));
    const b = await h.live.start('test-ticker', { label: 'six', intervalMs: 0 }, { origin: 'main' });
    const attachment = h.api.live.attach({ id: a.id }, () => {});
    await attachment.send({ type: 'tick', count: 2 });
    await h.live.shutdown();
    expect(finalised.filter((f) => f.id === a.id || f.id === b)).toEqual([
      { id: a.id, reason: 'shutdown', count: 2 },
      { id: b, reason: 'shutdown', count: 0 },
    ]);
    expect(await attachment.result).toMatchObject({ id: a.id, status: 'ended', endReason: 'shutdown' });
    expect((await rejection(h.api.live.start(ticker('late')))).error.code).toBe('cancelled');
  });

  it('browser mode: a page that stops reading gets skipped events, then a fresh snapshot once it reads again', async () => {
    const socket = h.socket?.();
    if (!socket) return;
    const total = 200;
    const { id } = await h.api.live.start({ kind: 'test-ticker', input: { label: 'chatty', intervalMs: 0, padBytes: 256 * 1024 } });
    const chunks: LiveAttachChunk[] = [];
    const attachment = h.api.live.attach({ id }, (c) => chunks.push(c));
    await until(() => chunks.length === 1, 'the snapshot');
    socket.pause();
    // Driven from main's side: the paused page would not read the answer to its own send.
    await (await h.live.attach(id, { deliver: () => {}, ended: () => {} })).control({ type: 'tick', count: total });
    socket.resume();
    await until(() => snapshots(chunks).length === 2 && lastSeq(chunks) === total, 'the resync snapshot');
    const resync = chunks.findIndex((c, i) => i > 0 && c.type === 'snapshot');
    const before = eventSeqs(chunks.slice(0, resync));
    // 50 MiB of events: far fewer crossed while the page was not reading; none out of order.
    expect(before.length).toBeLessThan(total);
    expect(before).toEqual(before.map((_, i) => i + 1));
    expect(snapshots(chunks)[1]).toMatchObject({ seq: total, snapshot: { count: total } });
    expect(eventSeqs(chunks.slice(resync))).toEqual([]);
    await attachment.cancel();
  });

  it('browser mode: a dropped socket re-attaches by itself, the page seeing a fresh snapshot, not an error', async () => {
    if (!h.dropSocket) return;
    const { id } = await h.api.live.start(ticker('seven'));
    const chunks: LiveAttachChunk[] = [];
    const attachment = h.api.live.attach({ id }, (c) => chunks.push(c));
    let settled = false;
    void attachment.result.finally(() => (settled = true)).catch(() => {});
    await attachment.send({ type: 'tick', count: 3 });
    await until(() => eventSeqs(chunks).length === 3, 'three ticks');
    const changesBefore = h.liveChanges.length;
    h.dropSocket();
    await until(() => h.statuses!.includes('disconnected'), 'the drop');
    // Main's side of the old socket detached; the session ticks on without it.
    await until(() => h.liveChanges.slice(changesBefore).some((s) => s.id === id && s.attachments === 0), 'main to see the drop');
    await (await h.live.attach(id, { deliver: () => {}, ended: () => {} })).control({ type: 'tick', count: 2 });
    await until(() => snapshots(chunks).length === 2, 'the fresh snapshot');
    expect(settled).toBe(false);
    expect(snapshots(chunks)[1]).toMatchObject({ seq: 5, snapshot: { count: 5, recent: [1, 2, 3, 4, 5] } });
    // The same handle carries on: its messages reach the session, numbering continues.
    await attachment.send({ type: 'tick', count: 1 });
    await until(() => eventSeqs(chunks).length === 4, 'a tick after the drop');
    expect(eventSeqs(chunks)).toEqual([1, 2, 3, 6]);
    expect(chunks.some((c) => c.type === 'error')).toBe(false);
    await attachment.cancel();
    expect(await attachment.result).toMatchObject({ status: 'running' });
  });
});
