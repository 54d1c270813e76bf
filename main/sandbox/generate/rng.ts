/**
 * Deterministic randomness: a seed from a hash of the request, and a small PRNG (mulberry32) over
 * it, so the same request (and seed) always produces the same output.
 */
import { createHash } from 'node:crypto';

/** A 32-bit seed from any strings (a SHA-256 prefix: stable across runs and platforms). */
export function hashSeed(...parts: string[]): number {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\u0000');
  return h.digest().readUInt32LE(0);
}

/** A seeded pseudo-random source. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** Integer in [min, max] inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** A child generator, so one part of the output does not shift another's choices. */
  fork(label: string): Rng {
    return new Rng(hashSeed(String(this.state), label));
  }
}
