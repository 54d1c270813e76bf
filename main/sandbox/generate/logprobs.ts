/**
 * Plausible log-probabilities for generated tokens (chat `logprobs` / `top_logprobs`): each entry
 * is `{token, logprob, bytes, top_logprobs}`, every list sorted from most to least likely. The
 * alternatives share what the chosen token leaves of the probability mass, so a token's list
 * never adds up to more than 100%.
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
      let rest = 1 - Math.exp(logprob);
      for (const alt of ALTERNATIVES) {
        if (tops.length >= top) break;
        if (alt === token) continue;
        const share = rest * (0.3 + rng.next() * 0.4);
        rest -= share;
        // Rounding keeps 6 decimals; the floor keeps a vanishing share finite.
        tops.push({ token: alt, logprob: round(Math.log(Math.max(share, 1e-12))), bytes: bytesOf(alt) });
      }
      tops.sort((a, b) => b.logprob - a.logprob);
    }
    return { token, logprob, bytes: bytesOf(token), top_logprobs: tops };
  });
}
