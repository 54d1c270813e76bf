/**
 * The Speech editor's tag palette, pure: an inline tag (`[pause]`) goes in at the cursor; a
 * wrapping tag (`<whisper>…</whisper>`) goes around the selection (or, with nothing selected,
 * in as an empty pair with the cursor inside). Each answer is the new text and the selection to
 * put back, so the editor keeps the caret where the user expects it.
 */
import { TTS_INLINE_TAGS, TTS_WRAPPING_TAGS } from '@shared/wire/tts';

export type InlineTag = (typeof TTS_INLINE_TAGS)[number];
export type WrappingTag = (typeof TTS_WRAPPING_TAGS)[number];
export const INLINE_TAGS: readonly InlineTag[] = TTS_INLINE_TAGS;
export const WRAPPING_TAGS: readonly WrappingTag[] = TTS_WRAPPING_TAGS;

export interface Edit {
  text: string;
  selectionStart: number;
  selectionEnd: number;
}

function clamp(n: number, text: string): number {
  return Math.max(0, Math.min(text.length, n));
}

/** `[tag]` at the cursor (replacing a selection), with a space either side where a word touches it. */
export function insertInlineTag(text: string, start: number, end: number, tag: InlineTag): Edit {
  const a = clamp(Math.min(start, end), text);
  const b = clamp(Math.max(start, end), text);
  const before = text.slice(0, a);
  const after = text.slice(b);
  const lead = before !== '' && !/\s$/.test(before) ? ' ' : '';
  const trail = after !== '' && !/^\s/.test(after) ? ' ' : '';
  const inserted = `${lead}[${tag}]${trail}`;
  const caret = a + inserted.length;
  return { text: before + inserted + after, selectionStart: caret, selectionEnd: caret };
}

/** `<tag>selection</tag>`; the selection stays on the wrapped words. */
export function wrapSelection(text: string, start: number, end: number, tag: WrappingTag): Edit {
  const a = clamp(Math.min(start, end), text);
  const b = clamp(Math.max(start, end), text);
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  return { text: text.slice(0, a) + open + text.slice(a, b) + close + text.slice(b), selectionStart: a + open.length, selectionEnd: b + open.length };
}
