/**
 * Ending an answer early, as a model does: at the first stop sequence (reported, since the
 * Anthropic-style interfaces say which one matched) and then at a token budget. Used by the
 * Messages planner and by both legacy completion endpoints.
 */
import { tokenize } from '../generate/tokenizer';

export interface CutText {
  text: string;
  /** The tokens as cut (re-tokenizing a cut text could merge a split word). */
  tokens: string[];
  /** Why the text ended: `stop` at a stop sequence, `length` at the budget, `end` on its own. */
  reason: 'stop' | 'length' | 'end';
  /** The stop sequence that ended it, when reason is `stop`. */
  stopSequence: string | null;
}

/** Cuts before the earliest stop sequence (ties: the one listed first), then at `maxTokens`. */
export function cutText(full: string, stops: readonly string[], maxTokens: number): CutText {
  let text = full;
  let stopSequence: string | null = null;
  let at = Infinity;
  for (const s of stops) {
    const i = s === '' ? -1 : full.indexOf(s);
    if (i >= 0 && i < at) {
      at = i;
      stopSequence = s;
    }
  }
  if (stopSequence !== null) text = full.slice(0, at);
  const tokens = tokenize(text);
  if (tokens.length > maxTokens) {
    const kept = tokens.slice(0, Math.max(0, maxTokens));
    return { text: kept.join(''), tokens: kept, reason: 'length', stopSequence: null };
  }
  return { text, tokens, reason: stopSequence === null ? 'end' : 'stop', stopSequence };
}
