/**
 * The files of an audio track while its session runs: `<tracksDir>/<id>.pcm`, raw interleaved
 * 16-bit PCM appended as it arrives, and `<id>.json`, a small sidecar (format, rate, channels,
 * start) written once, atomically, before the first sample, so the file describes itself even if
 * the database row is all that survived beside it. Unlike a blob (write-once, a temporary swept at
 * start-up), a track grows in place: a crash leaves every sample written so far, and start-up
 * finalises it (finaliseTrackFile) instead of discarding it.
 *
 * Appends are buffered in memory and written, then fdatasync'ed, at most `flushMs` after the
 * first unwritten byte (or at once past `maxBufferBytes`), so a kill loses at most that much audio
 * and a power cut at most that plus what the disk had not been told to keep. Writes go through
 * the async file API one after another: main's event loop never waits on the disk.
 */
import { createReadStream, fsyncSync, mkdirSync, openSync, closeSync, renameSync, writeSync } from 'node:fs';
import { open, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { BlobInfo, BlobStore } from './blobs';
import { wavHeader } from '../../shared/audio/wav';

/** The canonical header wavHeader writes. */
const WAV_HEADER_BYTES = 44;

/** What the sidecar says of a track. */
export interface TrackHeader {
  id: string;
  runId: string;
  direction: 'in' | 'out';
  format: 'pcm_s16le';
  sampleRate: number;
  channels: number;
  /** Where the track's first sample sits on the session clock (ms since the session started). */
  startMs: number;
  /** Wall-clock time the track was opened (ms since the epoch). */
  startedAt: number;
}

export const DEFAULT_FLUSH_MS = 250;
const DEFAULT_MAX_BUFFER = 256 * 1024;

export function trackPaths(dir: string, id: string): { pcm: string; sidecar: string } {
  if (!/^[A-Za-z0-9_-]{1,80}$/.test(id)) throw new Error(`not a track id: ${JSON.stringify(id.slice(0, 80))}`);
  return { pcm: join(dir, `${id}.pcm`), sidecar: join(dir, `${id}.json`) };
}

export class TrackWriter {
  private buffered: Buffer[] = [];
  private bufferedBytes = 0;
  private written = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private chain: Promise<void> = Promise.resolve();
  private failure: Error | null = null;
  private closed = false;

  private constructor(
    readonly header: TrackHeader,
    private readonly handle: Awaited<ReturnType<typeof open>>,
    private readonly flushMs: number,
    private readonly maxBufferBytes: number,
  ) {}

  /** Writes the sidecar (temp, fsync, rename) and creates the empty PCM file (0600). */
  static async open(dir: string, header: TrackHeader, options: { flushMs?: number; maxBufferBytes?: number } = {}): Promise<TrackWriter> {
    const paths = trackPaths(dir, header.id);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const temp = `${paths.sidecar}.tmp`;
    const fd = openSync(temp, 'w', 0o600);
    try {
      writeSync(fd, JSON.stringify(header));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, paths.sidecar);
    const handle = await open(paths.pcm, 'wx', 0o600);
    return new TrackWriter(header, handle, options.flushMs ?? DEFAULT_FLUSH_MS, options.maxBufferBytes ?? DEFAULT_MAX_BUFFER);
  }

  /** Bytes of one frame (a sample of every channel). */
  get frameBytes(): number {
    return this.header.channels * 2;
  }

  /** Frames appended so far (written or still buffered). */
  get frames(): number {
    return (this.written + this.bufferedBytes) / this.frameBytes;
  }

  /** Milliseconds of audio appended so far. */
  get durationMs(): number {
    return (this.frames * 1000) / this.header.sampleRate;
  }

  /** Appends whole frames of interleaved s16le samples. Throws on a partial frame or after a failed write. */
  append(pcm: Uint8Array): void {
    if (this.failure) throw this.failure;
    if (this.closed) throw new Error(`track ${this.header.id} is closed`);
    if (pcm.byteLength % this.frameBytes !== 0) throw new Error(`track ${this.header.id}: ${pcm.byteLength} bytes is not a whole number of ${this.frameBytes}-byte frames`);
    if (pcm.byteLength === 0) return;
    // Copied: the caller may reuse its buffer (a capture ring) before the write happens.
    this.buffered.push(Buffer.from(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.byteLength)));
    this.bufferedBytes += pcm.byteLength;
    if (this.bufferedBytes >= this.maxBufferBytes) void this.flush().catch(() => undefined);
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush().catch(() => undefined), this.flushMs);
      this.timer.unref();
    }
  }

  /** Writes what is buffered and syncs it to disk. Resolves once it is there. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const chunks = this.buffered;
    const bytes = this.bufferedBytes;
    this.buffered = [];
    this.bufferedBytes = 0;
    this.written += bytes;
    this.chain = this.chain.then(async () => {
      if (this.failure) throw this.failure;
      if (bytes === 0) return;
      try {
        await this.handle.writev(chunks);
        await this.handle.datasync();
      } catch (error) {
        this.failure = error instanceof Error ? error : new Error(String(error));
        throw this.failure;
      }
    });
    return this.chain;
  }

  /** Flushes and closes the file (the track is then finalised by finaliseTrackFile). */
  async close(): Promise<void> {
    if (this.closed) return this.chain;
    try {
      await this.flush();
    } finally {
      this.closed = true;
      await this.chain.catch(() => undefined);
      await this.handle.close();
    }
  }
}

/** The sidecar of track `id`, or null when it is missing or unreadable. */
export async function readTrackHeader(dir: string, id: string): Promise<TrackHeader | null> {
  try {
    const parsed = JSON.parse(await readFile(trackPaths(dir, id).sidecar, 'utf8')) as TrackHeader;
    return parsed && parsed.format === 'pcm_s16le' && parsed.sampleRate > 0 && parsed.channels > 0 ? parsed : null;
  } catch {
    return null;
  }
}

/** What finalising gave: the WAV blob and how many whole frames it holds. */
export interface FinalisedTrack extends BlobInfo {
  frames: number;
}

/**
 * Stores the track's samples as a WAV blob (streamed: a long call is never read whole). Only
 * whole frames count: a write torn by a crash ends mid-frame, and that tail is left out. A
 * missing PCM file is an empty track.
 */
export async function finaliseTrackFile(blobs: BlobStore, dir: string, header: Pick<TrackHeader, 'id' | 'sampleRate' | 'channels'>): Promise<FinalisedTrack> {
  const { pcm } = trackPaths(dir, header.id);
  const size = await stat(pcm).then((s) => s.size, (error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return 0;
    throw error;
  });
  const frameBytes = header.channels * 2;
  const frames = Math.floor(size / frameBytes);
  const dataBytes = frames * frameBytes;
  const wav = Readable.from(wavChunks(pcm, header.sampleRate, header.channels, dataBytes));
  const blob = await blobs.put(wav);
  if (blob.size !== WAV_HEADER_BYTES + dataBytes) throw new Error(`track ${header.id}: the file changed while it was finalised`);
  return { ...blob, frames };
}

async function* wavChunks(path: string, sampleRate: number, channels: number, dataBytes: number): AsyncGenerator<Buffer> {
  yield Buffer.from(wavHeader({ sampleRate, channels, dataBytes }));
  if (dataBytes === 0) return;
  for await (const chunk of createReadStream(path, { start: 0, end: dataBytes - 1 })) yield chunk as Buffer;
}

/** Removes a track's files once its blob is recorded (missing files are fine). */
export async function removeTrackFiles(dir: string, id: string): Promise<void> {
  const paths = trackPaths(dir, id);
  await rm(paths.pcm, { force: true });
  await rm(paths.sidecar, { force: true });
  await rm(`${paths.sidecar}.tmp`, { force: true });
}
