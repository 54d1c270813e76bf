/**
 * Diarisation by voice pitch: each closed speech segment's median F0 joins the nearest known
 * speaker within 15 % (a speaker's pitch drifts less than that between phrases; a man's and a
 * woman's voice, or two synthetic voices a few semitones apart, differ by more), else starts a new
 * speaker. Online, so the stream and the REST answer number speakers the same way: 0 for the first
 * voice heard, 1 for the next new one, and so on. A segment with no voiced window (a whisper, a
 * cough) goes to the last speaker.
 */

/** Largest pitch ratio (in log terms) still counted as the same voice: ln(1.15). */
const SAME_VOICE = Math.log(1.15);

interface Speaker {
  /** Running mean of log F0. */
  logF0: number;
  segments: number;
}

export class SpeakerClusters {
  private readonly speakers: Speaker[] = [];
  private last = 0;

  /** The speaker a segment with this median pitch would get, without recording it (for interim results). */
  peek(f0: number | null): number {
    return this.nearest(f0)?.index ?? (f0 === null ? this.last : this.speakers.length);
  }

  /** Records a closed segment and returns its speaker. */
  assign(f0: number | null): number {
    if (f0 === null) return this.last;
    const near = this.nearest(f0);
    const log = Math.log(f0);
    if (near) {
      const s = this.speakers[near.index];
      s.logF0 = (s.logF0 * s.segments + log) / (s.segments + 1);
      s.segments++;
      this.last = near.index;
    } else {
      this.speakers.push({ logF0: log, segments: 1 });
      this.last = this.speakers.length - 1;
    }
    return this.last;
  }

  get count(): number {
    return this.speakers.length;
  }

  private nearest(f0: number | null): { index: number } | null {
    if (f0 === null) return null;
    const log = Math.log(f0);
    let best: { index: number; d: number } | null = null;
    this.speakers.forEach((s, index) => {
      const d = Math.abs(s.logF0 - log);
      if (d <= SAME_VOICE && (!best || d < best.d)) best = { index, d };
    });
    return best;
  }
}
