/**
 * What a voice preview says: the start of the text being written (its first sentence, so the
 * voice is heard on the words that matter), or a stock line when there is none yet. Kept well under
 * the voices family's PREVIEW_MAX_CHARS so a preview stays short and cheap.
 */
export const PREVIEW_SAMPLE_DEFAULT = 'Hello! This is how I sound.';
/** Longest sample taken from the text. */
export const PREVIEW_SAMPLE_MAX = 160;

export function previewSample(text: string): string {
  const t = text.trim().replace(/\s+/g, ' ');
  if (!t) return PREVIEW_SAMPLE_DEFAULT;
  const end = /[.!?。！？]/.exec(t);
  if (end && end.index < PREVIEW_SAMPLE_MAX) return t.slice(0, end.index + 1);
  if (t.length <= PREVIEW_SAMPLE_MAX) return t;
  // Cut at the last space before the limit, not inside a word.
  const cut = t.lastIndexOf(' ', PREVIEW_SAMPLE_MAX);
  return t.slice(0, cut > 0 ? cut : PREVIEW_SAMPLE_MAX);
}
