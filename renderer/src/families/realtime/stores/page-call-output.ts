/**
 * The model's voice on the page's speakers, for a call whose output is the page: reads the call's
 * `playback` media stream (PCM16 frames at the output rate; before an answer item's first frame a
 * Data frame `{"item": id}`, and `{"flush": id}` when a barge-in stops it), plays it through
 * PagePlayback (AudioWorklet) and reports how much of the current item was heard, about ten times
 * a second and at once after a flush, so main's `conversation.item.truncate` carries what was
 * actually played and its first report marks the turn's first sample played.
 */
import type { AudioResult } from '@shared/audio/errors';
import { FrameKind, type MediaFrame } from '@shared/media-frames/frame';
import { PagePlayback } from '../../../audio/page-playback';

/** How often the played position is reported while an item plays. */
export const REPORT_EVERY_MS = 100;

export type PlayedReport = (itemId: string, playedMs: number, flushed: boolean) => void;

/** What the output needs from PagePlayback (tests give a fake). */
export type CallPlayer = Pick<PagePlayback, 'enqueue' | 'markItem' | 'flush' | 'stats' | 'dispose'>;

export class PageCallOutput {
  private item: { id: string; startMs: number; sentMs: number; reportedMs: number } | null = null;
  /** Audio handed to the player so far (ms at the source rate), on the player's rendered clock after a flush. */
  private enqueuedMs = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly decoder = new TextDecoder();
  private closed = false;

  constructor(
    private readonly player: CallPlayer,
    private readonly rate: number,
    private readonly report: PlayedReport,
  ) {
    this.timer = setInterval(() => void this.tick(), REPORT_EVERY_MS);
  }

  static async open(rate: number, sinkId: string | null, report: PlayedReport): Promise<AudioResult<PageCallOutput>> {
    const opened = await PagePlayback.open({ sourceRate: rate, sinkId });
    return opened.ok ? { ok: true, value: new PageCallOutput(opened.value, rate, report) } : opened;
  }

  /** One frame of the `playback` stream. */
  onFrame(frame: MediaFrame): void {
    if (this.closed) return;
    if (frame.kind === FrameKind.Audio) {
      const p = frame.payload;
      // Copy to an aligned buffer: a frame's payload may sit at an odd offset of its packet.
      const pcm = new Int16Array(p.byteLength >> 1);
      new Uint8Array(pcm.buffer).set(p.subarray(0, pcm.length * 2));
      this.player.enqueue(pcm);
      const ms = (pcm.length * 1000) / this.rate;
      this.enqueuedMs += ms;
      if (this.item) this.item.sentMs += ms;
      return;
    }
    if (frame.kind !== FrameKind.Data) return;
    let message: { item?: unknown; flush?: unknown };
    try {
      message = JSON.parse(this.decoder.decode(frame.payload)) as typeof message;
    } catch {
      return;
    }
    if (typeof message.item === 'string') {
      this.player.markItem();
      this.item = { id: message.item, startMs: this.enqueuedMs, sentMs: 0, reportedMs: 0 };
    } else if (typeof message.flush === 'string') void this.flush(message.flush);
  }

  private async flush(itemId: string): Promise<void> {
    const heard = await this.player.flush();
    const stats = await this.player.stats();
    // After a flush the player's enqueued count is its rendered count.
    if (stats) this.enqueuedMs = stats.playedMs;
    const current = this.item;
    this.item = null;
    if (current?.id === itemId || !current) this.report(itemId, Math.round(heard), true);
  }

  /** Reports the current item's heard ms when it moved. */
  private async tick(): Promise<void> {
    const item = this.item;
    if (!item || item.reportedMs >= item.sentMs - 1) return;
    const stats = await this.player.stats();
    if (!stats || this.item !== item) return;
    const played = Math.min(item.sentMs, Math.max(0, stats.playedMs - item.startMs));
    if (played <= item.reportedMs) return;
    item.reportedMs = played;
    this.report(item.id, Math.round(played), false);
  }

  async dispose(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.player.dispose();
  }
}
