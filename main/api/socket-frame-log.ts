/**
 * Captured frames masked across frames: a key a service (or the user's own text) spreads over two
 * `text.delta` or transcript frames is harmless text in each, so the frames of each direction go
 * through an EventLogScrubber (as a text run's SSE events do), which joins the strings of one
 * JSON path across frames and masks a key spanning them in every frame it touches. A frame whose
 * end could still start a key is held until the next frame of its direction (or the socket's
 * end) settles it, so frames may reach the recorder a frame late: `seq` keeps their order.
 *
 * At most one frame late: the scrubber holds a tail until the next event of the same JSON path,
 * and on a socket that path may never come again (a finished item's delta, keyed by its item_id;
 * a function call's arguments; a session.update's instructions), which held that frame, and every
 * later one of its direction behind it, until the socket closed (the console's log went quiet
 * after a tool call). So when the next frame of a direction leaves an older one still held, the
 * direction is flushed: a held tail of PARTIAL_TAIL_MIN characters or more is masked, and the
 * tails stay joined with later frames, so the rest of a key that comes later is masked there.
 *
 * And not for long: a socket whose next frame of a direction is not captured (a realtime call
 * captures its control messages but not the appends between them) may send no other captured
 * frame for a minute, which held its last message (a barge-in's truncate) out of the console's
 * log that long. `flushHeld()` lets every held frame go (the owner calls it HELD_FRAME_MAX_MS
 * after a push left one held), masked as the flush above.
 */
import type { CapturedEvent } from '../../shared/contract/runs';
import { EventLogScrubber } from './event-log-scrubber';
import type { SecretScrubber } from './secret-scrubber';
import type { CapturedFrame, FrameDirection } from './socket-capture';

/** How long a frame may wait for its direction's next frame before it is let go anyway. */
export const HELD_FRAME_MAX_MS = 100;

export class CapturedFrameLog {
  private readonly logs: Record<FrameDirection, EventLogScrubber>;
  /** Frames waiting for their masked text, by seq. */
  private readonly waiting = new Map<number, CapturedFrame>();

  constructor(scrubber: SecretScrubber) {
    this.logs = { in: new EventLogScrubber(scrubber), out: new EventLogScrubber(scrubber) };
  }

  /** Takes the next frame; returns the frames now settled (masked), in each direction's order. */
  push(frame: CapturedFrame): CapturedFrame[] {
    this.waiting.set(frame.seq, frame);
    const log = this.logs[frame.direction];
    const settled = this.settle(log.push(this.toEvent(frame)));
    if (this.holdsOlder(frame)) settled.push(...this.settle(log.flush()));
    return settled;
  }

  /** Whether a frame of `frame`'s direction older than it is still held (it has had its next frame). */
  private holdsOlder(frame: CapturedFrame): boolean {
    for (const [seq, held] of this.waiting) if (seq < frame.seq && held.direction === frame.direction) return true;
    return false;
  }

  /** Whether a frame is still held for its direction's next frame. */
  holding(): boolean {
    return this.waiting.size > 0;
  }

  /** Lets every held frame go (no next frame came in time), masked, in seq order; the tails stay joined with later frames. */
  flushHeld(): CapturedFrame[] {
    return [...this.settle(this.logs.out.flush()), ...this.settle(this.logs.in.flush())].sort((a, b) => a.seq - b.seq);
  }

  /** The socket ended: every held frame, masked. */
  end(): CapturedFrame[] {
    return [...this.settle(this.logs.out.end()), ...this.settle(this.logs.in.end())].sort((a, b) => a.seq - b.seq);
  }

  private toEvent(frame: CapturedFrame): CapturedEvent {
    if (frame.kind === 'json') return { t: frame.seq, ...(frame.type !== null ? { event: frame.type } : {}), data: JSON.stringify(frame.data) };
    if (frame.kind === 'text') return { t: frame.seq, data: frame.text };
    return { t: frame.seq, data: '' };
  }

  private settle(events: CapturedEvent[]): CapturedFrame[] {
    const out: CapturedFrame[] = [];
    for (const event of events) {
      const frame = this.waiting.get(event.t);
      if (!frame) continue;
      this.waiting.delete(event.t);
      if (frame.kind === 'json') {
        let data: unknown = frame.data;
        try {
          data = JSON.parse(event.data);
        } catch {
          data = event.data;
        }
        out.push({ ...frame, type: event.event ?? frame.type, data });
      } else if (frame.kind === 'text') out.push({ ...frame, text: event.data });
      // Read here, once the frame is logged: a plain summary (a structured clone keeps no getters).
      else out.push({ ...frame, audio: { bytes: frame.audio.bytes, durationMs: frame.audio.durationMs, head: frame.audio.head } });
    }
    return out;
  }
}
