/**
 * The receiving end of one stream: checks sequence numbers and counts what went wrong (frames
 * missing, frames arriving after a later one, repeats) and, once the sender's clock offset is
 * known, how late each frame is. Counters only: a real-time receiver never stops for a gap.
 */
import { nextSeq, seqDistance } from './frame';

export interface ReceiverCounters {
  received: number;
  /** In-order frames (the expected sequence number, or one after a gap). */
  delivered: number;
  /** Times the sequence jumped forward. */
  gaps: number;
  /** Frames skipped by those jumps. */
  missing: number;
  /** Frames older than one already received (late, or repeated): not delivered. */
  outOfOrder: number;
  /** Delivered frames older than `lateAfterMs` on arrival (needs a clock offset). */
  late: number;
}

export type ReceiveVerdict = 'in-order' | 'after-gap' | 'out-of-order';

export interface FrameReceiverOptions {
  /** A frame older than this on arrival counts as late (it is still delivered). Default 100 ms. */
  lateAfterMs?: number;
}

export class FrameReceiver {
  private expected: number | null = null;
  private readonly counters: ReceiverCounters = { received: 0, delivered: 0, gaps: 0, missing: 0, outOfOrder: 0, late: 0 };
  private readonly lateAfterMs: number;

  constructor(options: FrameReceiverOptions = {}) {
    this.lateAfterMs = options.lateAfterMs ?? 100;
  }

  /**
   * One arrival. `ageMs` is how old the frame is on arrival (receiver's now minus the sender's
   * timestamp moved onto the receiver's clock), when the offset is known. Out-of-order frames
   * are counted and should be discarded by the caller (playback has moved past them).
   */
  accept(seq: number, ageMs?: number): ReceiveVerdict {
    this.counters.received++;
    let verdict: ReceiveVerdict = 'in-order';
    if (this.expected !== null) {
      const d = seqDistance(seq, this.expected);
      if (d < 0) {
        this.counters.outOfOrder++;
        return 'out-of-order';
      }
      if (d > 0) {
        this.counters.gaps++;
        this.counters.missing += d;
        verdict = 'after-gap';
      }
    }
    this.expected = nextSeq(seq);
    this.counters.delivered++;
    if (ageMs !== undefined && ageMs > this.lateAfterMs) this.counters.late++;
    return verdict;
  }

  stats(): ReceiverCounters {
    return { ...this.counters };
  }
}
