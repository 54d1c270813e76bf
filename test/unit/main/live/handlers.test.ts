import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { LiveAttachChunk } from '../../../../shared/contract/live';
import type { SessionContext } from '../../../../main/host/handlers';
import { ATTACHMENT_MAX_BACKLOG, createLiveHandlers } from '../../../../main/live/handlers';
import { defineLiveKind } from '../../../../main/live/kind';
import { createLiveRegistry } from '../../../../main/live/registry';
import { tickerKind } from './ticker-kind';

/**
 * A window whose transport is above its high-water mark from the start and never drains until
 * `drain()`: every emit stays pending and counts in the backlog, as ws-session's do.
 */
function stalledWindow() {
  const chunks: LiveAttachChunk[] = [];
  const pending: Array<() => void> = [];
  const controller = new AbortController();
  let endMessages!: () => void;
  const messages: AsyncIterable<unknown> = {
    [Symbol.asyncIterator]: () => ({
      next: () => new Promise<IteratorResult<unknown>>((resolve) => (endMessages = () => resolve({ value: undefined, done: true }))),
    }),
  };
  const ctx: SessionContext<unknown, LiveAttachChunk> = {
    sessionId: 'window-1',
    opId: 'attach-0001',
    signal: controller.signal,
    messages,
    emit: (chunk) => {
      chunks.push(chunk);
      return new Promise<void>((resolve) => pending.push(resolve));
    },
    backlog: () => pending.length,
    validateMessagesWith: () => {},
  };
  return {
    ctx,
    chunks,
    drain: () => pending.splice(0).forEach((resolve) => resolve()),
    detach: () => {
      controller.abort();
      endMessages?.();
    },
  };
}

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

describe('live.attach handler', () => {
  it('a window that stops reading gets events up to a bound, then a fresh snapshot once it drains: no gap, nothing piled up', async () => {
    const registry = createLiveRegistry({ kinds: [tickerKind], onChange: () => {} });
    const handlers = createLiveHandlers(registry);
    const id = await registry.start('test-ticker', { label: 'slow', intervalMs: 0 }, { origin: 'window' });
    const window = stalledWindow();
    const result = handlers.attach({ id }, window.ctx);
    await turns(2);
    const driver = await registry.attach(id, { deliver: () => {}, ended: () => {} });
    await driver.control({ type: 'tick', count: ATTACHMENT_MAX_BACKLOG + 100 });
    await turns(2);
    // The first snapshot and events, as many as may wait past the high-water mark; the rest skipped.
    expect(window.chunks).toHaveLength(ATTACHMENT_MAX_BACKLOG);
    window.drain();
    await turns(2);
    window.drain();
    await driver.control({ type: 'tick', count: 1 });
    const after = window.chunks.slice(ATTACHMENT_MAX_BACKLOG);
    const total = ATTACHMENT_MAX_BACKLOG + 100;
    expect(after).toEqual([
      expect.objectContaining({ type: 'snapshot', seq: total, snapshot: expect.objectContaining({ count: total }) }),
      { type: 'event', seq: total + 1, event: { n: total + 1 } },
    ]);
    window.detach();
    expect(await result).toMatchObject({ id, status: 'running', attachments: 1 });
    await registry.shutdown();
  });
});

describe('live.attach while the session is still starting', () => {
  it('a window that leaves before the kind has started is let go; the session starts and runs anyway', async () => {
    let started!: () => void;
    const slow = defineLiveKind({
      id: 'slow-start',
      input: z.object({}).strict(),
      control: z.never(),
      start: async () => {
        await new Promise<void>((resolve) => (started = resolve));
        return { snapshot: () => 'ready', control: () => {}, stop: () => {} };
      },
    });
    const registry = createLiveRegistry({ kinds: [slow], onChange: () => {} });
    const handlers = createLiveHandlers(registry);
    const starting = registry.start('slow-start', {}, { origin: 'main' });
    await turns(1);
    const [summary] = registry.list();
    expect(summary).toMatchObject({ status: 'starting' });
    const window = stalledWindow();
    const result = handlers.attach({ id: summary.id }, window.ctx).then(
      () => 'resolved',
      (err: unknown) => (err as { error?: { code: string } }).error?.code,
    );
    await turns(1);
    window.detach();
    expect(await result).toBe('cancelled');
    started();
    expect(await starting).toBe(summary.id);
    await turns(2);
    expect(registry.summary(summary.id)).toMatchObject({ status: 'running', attachments: 0 });
    expect(window.chunks).toEqual([]);
    await registry.shutdown();
  });
});
