/**
 * Prompt caching as a client sees it: when a request starts with the same messages as an earlier
 * request of the same team and model, those messages' tokens are reported as `cached_tokens` (and
 * billed at the cached price). Deterministic for a given sequence of requests; bounded in size.
 */
import { hashSeed } from '../generate/rng';

export class PrefixCache {
  private readonly seen = new Set<string>();
  private readonly maxEntries: number;

  constructor(maxEntries = 50_000) {
    this.maxEntries = maxEntries;
  }

  /**
   * Cached text tokens for this prompt, then remembers its prefixes. `prefixTokens[i]` is the token
   * count of messages[0..i]; whole messages are the unit of caching.
   */
  lookupAndStore(scope: string, messages: readonly unknown[], prefixTokens: readonly number[]): number {
    const keys = messages.map((_, i) => `${scope}:${hashSeed(JSON.stringify(messages.slice(0, i + 1)))}`);
    let cached = 0;
    for (let i = messages.length - 1; i >= 0; i--) {
      if (this.seen.has(keys[i])) {
        cached = prefixTokens[i];
        break;
      }
    }
    for (const key of keys) {
      if (this.seen.size >= this.maxEntries) this.seen.delete(this.seen.values().next().value as string);
      this.seen.add(key);
    }
    return cached;
  }

  clear(): void {
    this.seen.clear();
  }
}
