/**
 * Plausible log-probabilities for generated tokens (chat `logprobs` / `top_logprobs`): each entry
 * is `{token, logprob, bytes, top_logprobs}`, the chosen token first among its alternatives and
 * every list sorted from most to least likely.
 */
import type { LogprobEntry, TopLogprob } from '../../../shared/wire/chat';
import type { Rng } from './rng';

const ALTERNATIVES = [' the', ' a', ',', '.', ' and', ' of', ' to', ' in', ' is', ' it', '\n', ' that'];

function bytesOf(token: string): number[] {
  return Array.from(Buffer.from(token, 'utf8'));
}

function round(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

/** One entry per token; `top` alternatives (0-8) per token. */
export function logprobsFor(tokens: readonly string[], rng: Rng, top: number): LogprobEntry[] {
  return tokens.map((token) => {
    // Cubing keeps most tokens confident (close to 0) with an occasional uncertain one.
    const logprob = round(-(rng.next() ** 3) * 3);
    const tops: TopLogprob[] = [];
    if (top > 0) {
      tops.push({ token, logprob, bytes: bytesOf(token) });
      let next = logprob;
      for (const alt of ALTERNATIVES) {
        if (tops.length >= top) break;
        if (alt === token) continue;
        next = round(next - 0.5 - rng.next() * 2);
        tops.push({ token: alt, logprob: next, bytes: bytesOf(alt) });
      }
    }
    return { token, logprob, bytes: bytesOf(token), top_logprobs: tops };
  });
}
