/**
 * The bytes behind video jobs, by key: made videos (`<key>.mp4`, keyed by the plan, so identical
 * requests share one encode) and input pictures (`<key>.src`, keyed by the hash of their bytes,
 * kept so a later edit or extension of an image-to-video can draw the same picture again).
 *
 * Every file is on disk in one folder (the state folder's `videos/`, or a temporary folder
 * removed on close); recently used videos are also kept in memory, up to `maxMemoryBytes` (least
 * recently used dropped first; they are read back from disk when asked for again). Writes go to
 * `<name>.tmp`, are fsynced and renamed, so a crash leaves a whole file or none; a video whose
 * file is missing is encoded again from its plan.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface VideoMediaOptions {
  /** The folder; default a fresh temporary folder, removed by close(). */
  dir?: string;
  /** Bytes of videos kept in memory; default 256 MiB. */
  maxMemoryBytes?: number;
}

export type MediaState = { state: 'ready'; size: number } | { state: 'encoding' } | { state: 'failed'; message: string } | { state: 'missing' };

const KEY = /^[0-9a-f]{16,64}$/;

export const DEFAULT_VIDEO_MEMORY_BYTES = 256 * 1024 * 1024;

export class VideoMedia {
  readonly dir: string;
  private readonly ownsDir: boolean;
  private readonly maxMemoryBytes: number;
  /** Videos in memory; Map order is the LRU order (a use moves a key to the end). */
  private readonly memory = new Map<string, Buffer>();
  private memoryBytes = 0;
  /** Videos on disk, with their sizes. */
  private readonly videos = new Map<string, number>();
  private readonly sources = new Set<string>();
  private readonly encoding = new Map<string, Promise<void>>();
  private readonly failures = new Map<string, string>();

  constructor(options: VideoMediaOptions = {}) {
    this.ownsDir = options.dir === undefined;
    this.dir = options.dir ?? mkdtempSync(join(tmpdir(), 'sandbox-videos-'));
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.maxMemoryBytes = options.maxMemoryBytes ?? DEFAULT_VIDEO_MEMORY_BYTES;
    this.scan();
  }

  state(key: string): MediaState {
    const size = this.videos.get(key);
    if (size !== undefined) return { state: 'ready', size };
    if (this.encoding.has(key)) return { state: 'encoding' };
    const message = this.failures.get(key);
    return message !== undefined ? { state: 'failed', message } : { state: 'missing' };
  }

  /**
   * Makes the video `key` unless it exists or is being made: `make` runs once for any number of
   * callers. Resolves when it is ready or has failed (see state()).
   */
  produce(key: string, make: () => Promise<Uint8Array>): Promise<void> {
    if (this.videos.has(key)) return Promise.resolve();
    const running = this.encoding.get(key);
    if (running) return running;
    this.failures.delete(key);
    const run = (async () => {
      try {
        const bytes = Buffer.from(await make());
        await this.writeAtomically(`${key}.mp4`, bytes);
        this.videos.set(key, bytes.length);
        this.remember(key, bytes);
      } catch (err) {
        this.failures.set(key, err instanceof Error ? err.message : String(err));
      } finally {
        this.encoding.delete(key);
      }
    })();
    this.encoding.set(key, run);
    return run;
  }

  /** The video's bytes (memory, else read from disk at once), or null when there are none. */
  getSync(key: string): Buffer | null {
    const cached = this.touch(key);
    if (cached) return cached;
    if (!this.videos.has(key)) return null;
    try {
      const bytes = readFileSync(this.pathOf(`${key}.mp4`));
      this.remember(key, bytes);
      return bytes;
    } catch {
      this.videos.delete(key);
      return null;
    }
  }

  /** The video's bytes without blocking on disk, or null when there are none. */
  async get(key: string): Promise<Buffer | null> {
    const cached = this.touch(key);
    if (cached) return cached;
    if (!this.videos.has(key)) return null;
    try {
      const bytes = await readFile(this.pathOf(`${key}.mp4`));
      this.remember(key, bytes);
      return bytes;
    } catch {
      this.videos.delete(key);
      return null;
    }
  }

  /** Keeps an input picture's bytes under `key` (the hash of the bytes). */
  async putSource(key: string, bytes: Uint8Array): Promise<void> {
    if (this.sources.has(key)) return;
    await this.writeAtomically(`${key}.src`, bytes);
    this.sources.add(key);
  }

  async getSource(key: string): Promise<Buffer | null> {
    if (!this.sources.has(key)) return null;
    return readFile(this.pathOf(`${key}.src`)).catch(() => null);
  }

  /** Bytes of videos held in memory (for tests and the README's figures). */
  get bytesInMemory(): number {
    return this.memoryBytes;
  }

  /** Removes every video and picture not in the given sets (and not being made). */
  sweep(videos: ReadonlySet<string>, sources: ReadonlySet<string>): void {
    for (const key of [...this.videos.keys()]) {
      if (videos.has(key)) continue;
      this.videos.delete(key);
      this.forget(key);
      void unlink(this.pathOf(`${key}.mp4`)).catch(() => undefined);
    }
    for (const key of [...this.failures.keys()]) if (!videos.has(key)) this.failures.delete(key);
    for (const key of [...this.sources]) {
      if (sources.has(key)) continue;
      this.sources.delete(key);
      void unlink(this.pathOf(`${key}.src`)).catch(() => undefined);
    }
  }

  /** Forgets what is in memory; the folder is removed when this store made it. */
  close(): void {
    this.memory.clear();
    this.memoryBytes = 0;
    if (this.ownsDir) rmSync(this.dir, { recursive: true, force: true });
  }

  private pathOf(name: string): string {
    return join(this.dir, name);
  }

  /** Registers what the folder holds (a state folder after a restart); removes cut-short writes and strangers. */
  private scan(): void {
    for (const name of readdirSync(this.dir)) {
      const m = /^(.+)\.(mp4|src)$/.exec(name);
      if (m && KEY.test(m[1])) {
        if (m[2] === 'mp4') this.videos.set(m[1], statSync(this.pathOf(name)).size);
        else this.sources.add(m[1]);
      } else {
        rmSync(this.pathOf(name), { force: true, recursive: true });
      }
    }
  }

  private async writeAtomically(name: string, bytes: Uint8Array): Promise<void> {
    const tmp = this.pathOf(`${name}.tmp`);
    const file = await open(tmp, 'w', 0o600);
    try {
      await file.writeFile(bytes);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(tmp, this.pathOf(name));
  }

  private touch(key: string): Buffer | null {
    const bytes = this.memory.get(key);
    if (!bytes) return null;
    this.memory.delete(key);
    this.memory.set(key, bytes);
    return bytes;
  }

  private remember(key: string, bytes: Buffer): void {
    this.forget(key);
    if (bytes.length > this.maxMemoryBytes) return;
    this.memory.set(key, bytes);
    this.memoryBytes += bytes.length;
    for (const [oldKey, old] of this.memory) {
      if (this.memoryBytes <= this.maxMemoryBytes) break;
      this.memory.delete(oldKey);
      this.memoryBytes -= old.length;
    }
  }

  private forget(key: string): void {
    const bytes = this.memory.get(key);
    if (!bytes) return;
    this.memory.delete(key);
    this.memoryBytes -= bytes.length;
  }
}
