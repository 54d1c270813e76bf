/**
 * The input audio buffer as absolute sample positions since the session's first append: chunks
 * appended at the end, dropped from the front once nothing can need them (so a session that
 * streams silence for an hour holds only its prefix padding), and any kept range copied out.
 */
export class SampleBuffer {
  private chunks: Int16Array[] = [];
  /** Absolute index of chunks[0][0]. */
  private first = 0;
  private total = 0;

  /** Absolute index one past the last sample appended. */
  get end(): number {
    return this.total;
  }

  /** Absolute index of the oldest sample still kept. */
  get start(): number {
    return this.first;
  }

  append(pcm: Int16Array): void {
    if (pcm.length === 0) return;
    this.chunks.push(pcm);
    this.total += pcm.length;
  }

  /** Forgets whole chunks that end at or before `at` (a chunk straddling `at` stays). */
  dropBefore(at: number): void {
    while (this.chunks.length > 0 && this.first + this.chunks[0].length <= at) {
      this.first += this.chunks[0].length;
      this.chunks.shift();
    }
  }

  /** A copy of samples [from, to), clamped to what is kept. */
  slice(from: number, to: number): Int16Array {
    const a = Math.max(from, this.first);
    const b = Math.min(to, this.total);
    const out = new Int16Array(Math.max(0, b - a));
    let pos = this.first;
    for (const c of this.chunks) {
      const cEnd = pos + c.length;
      if (cEnd > a && pos < b) out.set(c.subarray(Math.max(0, a - pos), Math.min(c.length, b - pos)), Math.max(0, pos - a));
      pos = cEnd;
      if (pos >= b) break;
    }
    return out;
  }
}
