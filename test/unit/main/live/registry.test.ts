import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { LiveAttachChunk, LiveSessionSummary } from '../../../../shared/contract/live';
import { WorkbenchFailure } from '../../../../shared/contract/errors';
import { defineLiveKind, type LiveKind } from '../../../../main/live/kind';
import { createLiveRegistry } from '../../../../main/live/registry';
import { finalised, tickerKind, type TickerSnapshot } from './ticker-kind';

function setup(kinds: LiveKind[] = [tickerKind]) {
  const changes: LiveSessionSummary[] = [];
  const registry = createLiveRegistry({ kinds, onChange: (s) => changes.push(s) });
  return { registry, changes };
}

function sink() {
  const chunks: LiveAttachChunk[] = [];
  let end: LiveSessionSummary | null = null;
  return { chunks, ended: () => end, sink: { deliver: (c: LiveAttachChunk) => chunks.push(c), ended: (s: LiveSessionSummary) => (end = s) } };
}

async function rejection(promise: Promise<unknown>): Promise<WorkbenchFailure> {
  const out = await promise.then(() => null, (err: unknown) => err);
  expect(out).toBeInstanceOf(WorkbenchFailure);
  return out as WorkbenchFailure;
}

const seqs = (chunks: LiveAttachChunk[]) => chunks.flatMap((c) => (c.type === 'event' ? [c.seq] : []));

describe('live registry', () => {
  it('validates the start input with the kind’s schema and refuses unknown kinds', async () => {
    const { registry } = setup();
    expect((await rejection(registry.start('test-ticker', { label: '', intervalMs: 0 }, { origin: 'window' }))).error).toMatchObject({
      code: 'invalid_input',
      issues: [{ path: 'label' }],
    });
    expect((await rejection(registry.start('nope', {}, { origin: 'window' }))).error).toMatchObject({ code: 'invalid_input', issues: [{ path: 'kind' }] });
    expect(registry.list()).toEqual([]);
  });

  it('gives an attachment a snapshot then consecutive events; a detached session keeps running', async () => {
    const { registry, changes } = setup();
    const id = await registry.start('test-ticker', { label: 'a', intervalMs: 0 }, { origin: 'window' });
    expect(registry.summary(id)).toMatchObject({ status: 'running', state: 'ticking', origin: 'window', attachments: 0 });
    expect(changes.map((c) => [c.status, c.state])).toEqual([['starting', null], ['starting', 'ticking'], ['running', 'ticking']]);
    const first = sink();
    const attachment = await registry.attach(id, first.sink);
    await attachment.control({ type: 'tick', count: 3 });
    attachment.detach();
    // Nobody attached: it keeps counting.
    const loose = await registry.attach(id, sink().sink);
    await loose.control({ type: 'tick', count: 2 });
    loose.detach();
    const second = sink();
    await registry.attach(id, second.sink);
    expect(first.chunks[0]).toMatchObject({ type: 'snapshot', seq: 0, snapshot: { count: 0 } });
    expect(seqs(first.chunks)).toEqual([1, 2, 3]);
    expect(second.chunks).toHaveLength(1);
    const snap = second.chunks[0];
    expect(snap).toMatchObject({ type: 'snapshot', seq: 5, session: { attachments: 1 } });
    expect((snap as { snapshot: TickerSnapshot }).snapshot).toEqual({ label: 'a', count: 5, recent: [1, 2, 3, 4, 5] });
  });

  it('refuses a control message the kind’s schema refuses, and reports a kind’s own refusal', async () => {
    const { registry } = setup();
    const id = await registry.start('test-ticker', { label: 'a', intervalMs: 0 }, { origin: 'window' });
    const a = await registry.attach(id, sink().sink);
    expect((await rejection(a.control({ type: 'tick', count: 0 }))).error).toMatchObject({ code: 'invalid_input', issues: [{ path: 'count' }] });
    expect((await rejection(a.control({ type: 'fail' }))).error.message).toContain('refuses');
  });

  it('stop awaits the finaliser, ends every attachment and forgets the session', async () => {
    const { registry, changes } = setup();
    const id = await registry.start('test-ticker', { label: 'a', intervalMs: 0 }, { origin: 'main' });
    const s = sink();
    await (await registry.attach(id, s.sink)).control({ type: 'tick', count: 2 });
    const summary = await registry.stop(id);
    expect(finalised.filter((f) => f.id === id)).toEqual([{ id, reason: 'stopped', count: 2 }]);
    expect(summary).toMatchObject({ id, status: 'ended', endReason: 'stopped', origin: 'main' });
    expect(s.ended()).toEqual(summary);
    expect(changes.at(-1)).toEqual(summary);
    expect(registry.list()).toEqual([]);
    expect((await rejection(registry.attach(id, sink().sink))).error.code).toBe('not_found');
    expect((await rejection(registry.stop(id))).error.code).toBe('not_found');
  });

  it('a session that ends by itself is finalised once with reason ended', async () => {
    const { registry } = setup();
    const id = await registry.start('test-ticker', { label: 'a', intervalMs: 0 }, { origin: 'window' });
    const s = sink();
    const a = await registry.attach(id, s.sink);
    await a.control({ type: 'end' });
    while (!s.ended()) await new Promise((r) => setImmediate(r));
    expect(finalised.filter((f) => f.id === id).map((f) => f.reason)).toEqual(['ended']);
    expect(s.ended()).toMatchObject({ endReason: 'ended' });
    expect((await rejection(registry.stop(id))).error.code).toBe('not_found');
  });

  it('shutdown ends every session, awaiting each finaliser, and refuses new ones', async () => {
    const { registry } = setup();
    const ids = [
      await registry.start('test-ticker', { label: 'a', intervalMs: 1 }, { origin: 'window' }),
      await registry.start('test-ticker', { label: 'b', intervalMs: 0 }, { origin: 'main' }),
    ];
    await registry.shutdown();
    expect(finalised.filter((f) => ids.includes(f.id)).map((f) => [f.id, f.reason])).toEqual(ids.map((id) => [id, 'shutdown']));
    expect(registry.list()).toEqual([]);
    expect((await rejection(registry.start('test-ticker', { label: 'c', intervalMs: 0 }, { origin: 'window' }))).error.code).toBe('cancelled');
  });

  it('shutdown lets the app quit when a finaliser never returns, saying which', async () => {
    const stuck = defineLiveKind({
      id: 'stuck',
      input: z.object({}).strict(),
      control: z.never(),
      start: () => ({ snapshot: () => null, control: () => {}, stop: () => new Promise<void>(() => {}) }),
    });
    const lines: string[] = [];
    const registry = createLiveRegistry({ kinds: [stuck, tickerKind], onChange: () => {}, log: (l) => lines.push(l), shutdownTimeoutMs: 20 });
    const id = await registry.start('stuck', {}, { origin: 'main' });
    const other = await registry.start('test-ticker', { label: 'ok', intervalMs: 0 }, { origin: 'main' });
    await registry.shutdown();
    expect(finalised.filter((f) => f.id === other).map((f) => f.reason)).toEqual(['shutdown']);
    expect(lines.filter((l) => l.includes('quitting without'))).toEqual([expect.stringContaining(`${id} (stuck)`)]);
    expect(lines.join('\n')).not.toContain(`${other} (test-ticker)`);
  });

  it('a kind that fails to start is not listed and its error reaches the caller', async () => {
    const broken = defineLiveKind({
      id: 'broken',
      input: z.object({}).strict(),
      control: z.never(),
      start: () => {
        throw new WorkbenchFailure({ code: 'network', message: 'The service socket refused us.' });
      },
    });
    const { registry, changes } = setup([broken]);
    expect((await rejection(registry.start('broken', {}, { origin: 'window' }))).error).toEqual({ code: 'network', message: 'The service socket refused us.' });
    expect(registry.list()).toEqual([]);
    expect(changes.at(-1)).toMatchObject({ status: 'ended', endReason: 'failed', error: { code: 'network' } });
  });
});
