/**
 * Caps the pixels being decoded at once. A decode holds the picture at full size (4 bytes a pixel,
 * plus the codec's own buffers: ~0.6 GB for 50 MP), and the sandbox may live in the app's main
 * process: eight concurrent 50 MP inputs took it to 3 GB. Each decode asks for its pixels; it waits
 * while the ones running hold too many. One picture of any allowed size always fits alone, and
 * small ones run side by side. First come, first served, so a big one is not starved by small ones.
 */
export class DecodeGate {
  private inUse = 0;
  private readonly waiting: Array<{ pixels: number; go: () => void }> = [];

  constructor(readonly capacity: number) {}

  /** Runs `work` once `pixels` (capped at the capacity) are free, and frees them after. */
  async run<T>(pixels: number, work: () => Promise<T>): Promise<T> {
    const need = Math.min(Math.max(1, pixels), this.capacity);
    if (this.waiting.length > 0 || this.inUse + need > this.capacity) {
      await new Promise<void>((go) => this.waiting.push({ pixels: need, go }));
    } else {
      this.inUse += need;
    }
    try {
      return await work();
    } finally {
      this.inUse -= need;
      this.wake();
    }
  }

  /** Pixels held by running decodes (for tests and the log). */
  get pixelsInUse(): number {
    return this.inUse;
  }

  private wake(): void {
    while (this.waiting.length > 0 && this.inUse + this.waiting[0].pixels <= this.capacity) {
      const next = this.waiting.shift() as { pixels: number; go: () => void };
      this.inUse += next.pixels;
      next.go();
    }
  }
}
