/**
 * The speech tags of the spec (Limits): inline tags (`[pause]`, `[laugh]`, …) are events between
 * words; wrapping tags (`<whisper>…</whisper>`, …) style the text they enclose and nest. The text
 * is split into pieces of one style, and the SPOKEN text (tags removed) is what the character
 * timestamps describe: `spoken` here, and each piece's `from` indexes into it.
 *
 * Lenient as a speech service is: a bracket or angle text that is not one of the spec's tags is
 * plain text (it is spoken); a closing tag that closes nothing is dropped; an unclosed tag lasts to
 * the end of the text.
 */

export const INLINE_TAGS = ['pause', 'long-pause', 'hum-tune', 'laugh', 'chuckle', 'giggle', 'cry', 'tsk', 'tongue-click', 'lip-smack', 'breath', 'inhale', 'exhale', 'sigh'] as const;
export const WRAPPING_TAGS = ['soft', 'whisper', 'loud', 'build-intensity', 'decrease-intensity', 'higher-pitch', 'lower-pitch', 'slow', 'fast', 'sing-song', 'singing', 'emphasis'] as const;

export type InlineTag = (typeof INLINE_TAGS)[number];
export type WrappingTag = (typeof WRAPPING_TAGS)[number];

export type Piece =
  /** Text in the styles of the wrapping tags open around it (outermost first). */
  | { kind: 'text'; text: string; styles: WrappingTag[]; from: number }
  | { kind: 'tag'; tag: InlineTag; styles: WrappingTag[]; at: number };

export interface ParsedText {
  /** The text with every tag removed: what is spoken and what `graph_chars` lists. */
  spoken: string;
  pieces: Piece[];
  /** Wrapping tags still open at the end. */
  open: WrappingTag[];
}

const TAG = /\[([a-z-]+)\]|<(\/?)([a-z-]+)>/gi;

export function parseSpeechText(text: string): ParsedText {
  const pieces: Piece[] = [];
  const open: WrappingTag[] = [];
  let spoken = '';
  let last = 0;
  const addText = (chunk: string) => {
    if (chunk.length === 0) return;
    const prev = pieces[pieces.length - 1];
    if (prev?.kind === 'text' && sameStyles(prev.styles, open)) prev.text += chunk;
    else pieces.push({ kind: 'text', text: chunk, styles: [...open], from: spoken.length });
    spoken += chunk;
  };
  for (const m of text.matchAll(TAG)) {
    const inline = m[1]?.toLowerCase();
    const wrapping = m[3]?.toLowerCase();
    const isInline = inline !== undefined && (INLINE_TAGS as readonly string[]).includes(inline);
    const isWrapping = wrapping !== undefined && (WRAPPING_TAGS as readonly string[]).includes(wrapping);
    if (!isInline && !isWrapping) continue;
    addText(text.slice(last, m.index));
    last = m.index + m[0].length;
    if (isInline) pieces.push({ kind: 'tag', tag: inline as InlineTag, styles: [...open], at: spoken.length });
    else if (m[2] === '/') {
      const i = open.lastIndexOf(wrapping as WrappingTag);
      if (i >= 0) open.splice(i, 1);
    } else open.push(wrapping as WrappingTag);
  }
  addText(text.slice(last));
  return { spoken, pieces, open };
}

/**
 * A clause or sentence end: `. ! ?`, a comma, semicolon or colon, or a dash set off by a space
 * (` - `, `–`, `—`), then any closing quotes or brackets, then whitespace. A hyphen inside a word
 * (`well-known`) or a comma inside a number (`1,000`) has no whitespace after it and is no end.
 */
const CLAUSE_END = /(?:[.!?,;:]|\s-|[–—])["')\]]*\s+/g;

/**
 * How much of streamed text can be spoken now: up to a clause or sentence end where no wrapping
 * tag is open. `last` (the default) takes as much as is ready; `first` takes only the first
 * clause, which is what an utterance's first audio waits for (the rest follows while it plays).
 * 0 when there is none: wait for more text or `text.done`.
 */
export function readyPrefix(text: string, which: 'first' | 'last' = 'last'): number {
  const ends = [...text.matchAll(CLAUSE_END)].map((m) => m.index + m[0].length);
  if (which === 'last') ends.reverse();
  for (const end of ends) {
    if (parseSpeechText(text.slice(0, end)).open.length === 0) return end;
  }
  return 0;
}

function sameStyles(a: readonly WrappingTag[], b: readonly WrappingTag[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/** How a set of wrapping tags changes the voice. Applied by eSpeak's own controls, or as gain. */
export interface StyleEffect {
  /** Added to eSpeak's pitch (0-99). */
  pitch: number;
  /** Multiplies the speaking rate. */
  rate: number;
  /** eSpeak amplitude (100 normal). */
  amplitude: number;
  whisper: boolean;
  /** A wider pitch range (SSML prosody range), for sing-song and singing. */
  wideRange: boolean;
  /** Gain ramp over the piece, start -> end (1 = none). */
  gainFrom: number;
  gainTo: number;
}

export function styleEffect(styles: readonly WrappingTag[]): StyleEffect {
  const e: StyleEffect = { pitch: 0, rate: 1, amplitude: 100, whisper: false, wideRange: false, gainFrom: 1, gainTo: 1 };
  for (const s of styles) {
    switch (s) {
      case 'soft': e.amplitude *= 0.5; break;
      case 'whisper': e.whisper = true; break;
      case 'loud': e.amplitude *= 1.7; break;
      case 'build-intensity': e.gainFrom *= 0.45; e.gainTo *= 1.5; break;
      case 'decrease-intensity': e.gainFrom *= 1.5; e.gainTo *= 0.45; break;
      case 'higher-pitch': e.pitch += 25; break;
      case 'lower-pitch': e.pitch -= 25; break;
      case 'slow': e.rate *= 0.7; break;
      case 'fast': e.rate *= 1.35; break;
      case 'sing-song': e.wideRange = true; e.pitch += 10; break;
      case 'singing': e.wideRange = true; e.pitch += 15; e.rate *= 0.75; break;
      case 'emphasis': e.amplitude *= 1.3; e.rate *= 0.9; break;
    }
  }
  e.amplitude = Math.min(200, Math.max(10, e.amplitude));
  return e;
}
