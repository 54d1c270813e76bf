import { describe, expect, it } from 'vitest';
import { SendQueue } from '../../../../main/api/socket-send-queue';

/** A socket whose writes finish only when the test says (the network's pace). */
function fakeSocket() {
  const pending: Array<{ data: string | Uint8Array; done: () => void }> = [];
  return {
    pending,
    send(data: string | Uint8Array, _opts: { binary: boolean }, cb: () => void) {
      pending.push({ data, done: cb });
    },
  };
}

describe('SendQueue (event socket send back-pressure)', () => {
  it('frames waiting behind others count against the bound, so unawaited sends cannot pile up', () => {
    const ws = fakeSocket();
    const q = new SendQueue(ws as never, { sendHighWaterBytes: 100, drainTimeoutMs: 1000 }, () => true);
    expect(q.full(500)).toBe(false); // nothing waits: one large frame may go
    void q.enqueue(80, () => q.write('a', false, 80));
    expect(q.full(20)).toBe(false);
    expect(q.full(21)).toBe(true);
  });

  it('writes in order; a frame waits for the socket to drain under the bound, then goes', async () => {
    const ws = fakeSocket();
    const q = new SendQueue(ws as never, { sendHighWaterBytes: 100, drainTimeoutMs: 60_000 }, () => true);
    const order: string[] = [];
    const send = (name: string, size: number) =>
      q.enqueue(size, (drained) => {
        order.push(`${name}:${drained}`);
        q.write(name, false, size);
        return drained;
      });
    await send('a', 80);
    await send('b', 40);
    expect(q.bufferedBytes).toBe(120);
    const third = send('c', 10);
    await Promise.resolve();
    await Promise.resolve();
    expect(order).toEqual(['a:true', 'b:true']); // c waits: 120 > 100 unwritten
    ws.pending[0]!.done(); // a written: 40 left, under the bound
    expect(await third).toBe(true);
    expect(order).toEqual(['a:true', 'b:true', 'c:true']);
    expect(ws.pending.map((p) => p.data)).toEqual(['a', 'b', 'c']);
    expect(q.bufferedBytes).toBe(50);
  });

  it('gives up (drained false) when the socket does not drain in time', async () => {
    const ws = fakeSocket();
    const q = new SendQueue(ws as never, { sendHighWaterBytes: 10, drainTimeoutMs: 20 }, () => true);
    await q.enqueue(50, () => q.write('big', true, 50));
    expect(await q.enqueue(5, (drained) => drained)).toBe(false);
  });

  it('a close wakes a waiting frame at once, not drained', async () => {
    const ws = fakeSocket();
    let open = true;
    const q = new SendQueue(ws as never, { sendHighWaterBytes: 10, drainTimeoutMs: 600_000 }, () => open);
    await q.enqueue(50, () => q.write('big', true, 50));
    const waiting = q.enqueue(5, (drained) => drained);
    await new Promise((r) => setTimeout(r, 0));
    open = false;
    q.release();
    expect(await waiting).toBe(false);
  });
});
