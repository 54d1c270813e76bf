/**
 * A stand-in for wavesurfer.js in happy-dom (no canvas, no media decoding): records what each
 * instance was created with and asked to do, and lets a test fire its events (`ready`,
 * `timeupdate`, `play`, `error`, …) as the real one does while playing.
 *
 *   vi.mock('wavesurfer.js', () => import('./fake-wavesurfer'));   // path from the test file
 */
type Listener = (...args: unknown[]) => void;

export class FakeWaveSurfer {
  static instances: FakeWaveSurfer[] = [];
  static create(options: Record<string, unknown>): FakeWaveSurfer {
    const ws = new FakeWaveSurfer(options);
    FakeWaveSurfer.instances.push(ws);
    return ws;
  }

  readonly listeners = new Map<string, Listener[]>();
  readonly calls: Array<[string, ...unknown[]]> = [];
  destroyed = false;
  playing = false;
  currentTime = 0;
  duration = 0;

  constructor(readonly options: Record<string, unknown>) {}

  on(event: string, fn: Listener): () => void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), fn]);
    return () => this.listeners.set(event, (this.listeners.get(event) ?? []).filter((f) => f !== fn));
  }
  emit(event: string, ...args: unknown[]): void {
    if (event === 'ready') this.duration = args[0] as number;
    if (event === 'timeupdate') this.currentTime = args[0] as number;
    for (const fn of this.listeners.get(event) ?? []) fn(...args);
  }
  play(): Promise<void> {
    this.calls.push(['play']);
    this.playing = true;
    this.emit('play');
    return Promise.resolve();
  }
  pause(): void {
    this.calls.push(['pause']);
    this.playing = false;
    this.emit('pause');
  }
  playPause(): Promise<void> {
    return this.playing ? (this.pause(), Promise.resolve()) : this.play();
  }
  loadBlob(blob: Blob, peaks?: unknown, duration?: number): Promise<void> {
    this.calls.push(['loadBlob', blob, peaks, duration]);
    return Promise.resolve();
  }
  setTime(seconds: number): void {
    this.calls.push(['setTime', seconds]);
    // As wavesurfer does: the new position is reported at once, before the media element's own.
    this.emit('timeupdate', seconds);
  }
  getDuration(): number {
    return this.duration;
  }
  getCurrentTime(): number {
    return this.currentTime;
  }
  isPlaying(): boolean {
    return this.playing;
  }
  destroy(): void {
    this.calls.push(['destroy']);
    this.destroyed = true;
  }
}

export default FakeWaveSurfer;
