/**
 * The bytes the stream benchmarks measure: a seeded PRNG (every run parses the same bytes), the
 * words their recordings are made of (multi-byte characters included), and network-sized reads
 * whose boundaries fall mid-line and mid-character; and the median timing they all report.
 */
import { performance } from 'node:perf_hooks';

/** Deterministic PRNG so every run measures the same bytes. */
export function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const WORDS = ['the', ' model', ' answered', ' quickly', ',', ' and', ' then', ' é', ' 世界', ' 🎉', '\n\n', ' **bold**', ' `code`', ' "quoted"', ' streaming', ' tokens', '.'];

/** Splits bytes into network-sized reads (64 B .. 16 KiB) so boundaries fall mid-line and mid-character. */
export function networkReads(bytes: Uint8Array, random: () => number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let pos = 0; pos < bytes.length; ) {
    const size = 64 + Math.floor(random() * 16_320);
    out.push(bytes.subarray(pos, pos + size));
    pos += size;
  }
  return out;
}

/** The reads as a web ReadableStream, the way fetch bodies reach the SDKs. */
export function readable(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]);
      else controller.close();
    },
  });
}

/** Stream benchmarks time this many runs (after one warm-up) and report the median. */
export const RUNS = 7;

export interface Timed<T> {
  mbPerS: number;
  medianMs: number;
  /** What the last run returned (items counted, text produced), for the caller to check. */
  result: T;
}

/** Runs `fn` once to warm up, then RUNS times; throughput of `bytes` at the median time. */
export async function timeMedian<T>(fn: () => T | Promise<T>, bytes: number): Promise<Timed<T>> {
  let result = await fn();
  const times: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    result = await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const medianMs = times[Math.floor(times.length / 2)]!;
  return { mbPerS: Math.round((bytes / 1e6 / (medianMs / 1000)) * 10) / 10, medianMs: Math.round(medianMs * 10) / 10, result };
}
