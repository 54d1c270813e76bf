/**
 * Back-pressure for stream and session chunks over Electron IPC, which has none of its own
 * (`webContents.send` queues without limit): a credit window per stream. Main counts what it sent
 * and the page acknowledges what its code was handed (IPC_STREAM_ACK, in batches); past
 * IPC_STREAM_WINDOW unacknowledged bytes or chunks, `sent` answers a promise that settles once
 * acknowledgements bring the stream back under, and the host's session `emit` waits on it. A
 * stream's end, or its window reloading or closing, releases every waiter.
 */
import { IPC_STREAM_WINDOW } from '../../shared/contract/protocol';

export { chunkCost } from '../../shared/contract/chunk-cost';

interface Outstanding {
  bytes: number;
  chunks: number;
  waiters: Array<() => void>;
}

export class StreamCredits {
  private readonly streams = new Map<string, Outstanding>();

  constructor(private readonly window: { bytes: number; chunks: number } = IPC_STREAM_WINDOW) {}

  /** Counts a chunk sent on `streamId`; a promise when the page is now a window behind. */
  sent(streamId: string, bytes: number): void | Promise<void> {
    let s = this.streams.get(streamId);
    if (!s) this.streams.set(streamId, (s = { bytes: 0, chunks: 0, waiters: [] }));
    s.bytes += bytes;
    s.chunks += 1;
    if (!this.over(s)) return;
    const outstanding = s;
    return new Promise<void>((resolve) => outstanding.waiters.push(resolve));
  }

  /** The page's code was handed `chunks` chunks of `bytes` bytes on `streamId`. */
  ack(streamId: string, chunks: number, bytes: number): void {
    const s = this.streams.get(streamId);
    if (!s || !Number.isFinite(chunks) || !Number.isFinite(bytes)) return;
    s.chunks = Math.max(0, s.chunks - Math.max(0, Math.floor(chunks)));
    s.bytes = Math.max(0, s.bytes - Math.max(0, bytes));
    if (!this.over(s)) for (const wake of s.waiters.splice(0)) wake();
  }

  /** The stream ended: nothing more will be acknowledged. */
  end(streamId: string): void {
    const s = this.streams.get(streamId);
    if (!s) return;
    this.streams.delete(streamId);
    for (const wake of s.waiters.splice(0)) wake();
  }

  /** The page is gone (reload, close): release everything. */
  reset(): void {
    for (const id of [...this.streams.keys()]) this.end(id);
  }

  /** Unacknowledged chunks and bytes of `streamId` (diagnostics, tests). */
  outstanding(streamId: string): { bytes: number; chunks: number } {
    const s = this.streams.get(streamId);
    return { bytes: s?.bytes ?? 0, chunks: s?.chunks ?? 0 };
  }

  private over(s: Outstanding): boolean {
    return s.bytes > this.window.bytes || s.chunks > this.window.chunks;
  }
}
