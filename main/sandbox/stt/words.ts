/**
 * Synthetic words laid out over real speech. The text is made-up syllable words from a generator
 * seeded by the segment's own audio (so it is plainly not a transcription, yet the same audio
 * always gives the same words); their timing follows the speech the detector found: words start at
 * the segment's start, one after another with short gaps, and none outlasts the segment.
 *
 * The layout is sequential, so a stream can show the words completed so far and later ones never
 * move earlier ones; only the last word is clipped when the segment's end becomes known.
 */
import { createHash } from 'node:crypto';
import { Rng } from '../generate/rng';

export interface SttWord {
  text: string;
  /** Seconds from the start of the audio (3 decimals). */
  start: number;
  end: number;
  confidence: number;
  speaker?: number;
}

export interface WordStyle {
  /** Keep filler words ("um", "uh"); the spec removes them by default. */
  fillerWords: boolean;
  /** Bias terms: some words come out as one of them. */
  keyterms: readonly string[];
  /** Inverse text normalisation (needs a language): number words written as digits. */
  itn: boolean;
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'ta', 'vo', 'su', 'pel', 'dar', 'ni', 'quo', 'zem', 'bi', 'tor', 'la', 'fen', 'ru', 'sha', 'gol', 'ne'];
const FILLERS = ['um', 'uh'];
const NUMBERS: Array<[string, string]> = [['two', '2'], ['five', '5'], ['seven', '7'], ['twelve', '12'], ['twenty', '20'], ['forty', '40'], ['ninety', '90']];
/** A word shorter than this is not started at the end of a segment. */
const MIN_WORD_MS = 120;
/** How much of a segment's start seeds its words. */
export const SEED_SAMPLES = 3200;

/** A seed from a segment's first samples (16 kHz). */
export function seedFromAudio(samples: Int16Array): number {
  return createHash('sha256').update(Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength)).digest().readUInt32LE(0);
}

interface RawWord {
  startMs: number;
  endMs: number;
  /** As spoken; `digits` is the written form under ITN. */
  text: string;
  digits?: string;
  filler: boolean;
  confidence: number;
}

const round3 = (ms: number) => Math.round(ms) / 1000;

/** The words of one speech segment. */
export class SegmentLayout {
  private readonly rng: Rng;
  private readonly raw: RawWord[] = [];
  private cursorMs: number;

  constructor(
    seed: number,
    readonly startMs: number,
    private readonly style: WordStyle,
  ) {
    this.rng = new Rng(seed);
    this.cursorMs = startMs + this.rng.int(0, 30);
  }

  /** Whole words ending by `tMs`. */
  completeUntil(tMs: number, speaker?: number): SttWord[] {
    this.generateUntil(tMs);
    return this.render(this.raw.filter((w) => w.endMs <= tMs), speaker);
  }

  /** The word being spoken at `tMs`, cut to the part heard so far (interim results show "wor"). */
  inProgress(tMs: number, speaker?: number): SttWord | null {
    this.generateUntil(tMs);
    const w = this.raw.find((r) => r.startMs < tMs && r.endMs > tMs && (this.style.fillerWords || !r.filler));
    if (!w || tMs - w.startMs < MIN_WORD_MS / 2) return null;
    const share = (tMs - w.startMs) / (w.endMs - w.startMs);
    const text = w.text.slice(0, Math.max(1, Math.round(w.text.length * share)));
    return { ...this.render([w], speaker)[0], text, end: round3(tMs) };
  }

  /**
   * All the segment's words once it is known to end at `endMs`: the last word spoken ends with the
   * speech (clipped, or drawn out over the pause the layout left), as a real last word does.
   */
  finish(endMs: number, speaker?: number): SttWord[] {
    this.generateUntil(endMs);
    const kept = this.raw.filter((w) => w.startMs <= endMs - MIN_WORD_MS || (w.endMs <= endMs && w.startMs < endMs));
    const last = kept.map((w) => this.style.fillerWords || !w.filler).lastIndexOf(true);
    return this.render(kept.map((w, i) => (i === last ? { ...w, endMs } : w)), speaker);
  }

  private generateUntil(tMs: number): void {
    while (this.cursorMs < tMs) {
      const roll = this.rng.next();
      const startMs = this.cursorMs;
      let text: string;
      let digits: string | undefined;
      let filler = false;
      let durMs: number;
      if (roll < 0.05) {
        text = this.rng.pick(FILLERS);
        filler = true;
        durMs = this.rng.int(180, 320);
      } else if (roll < 0.1) {
        [text, digits] = this.rng.pick(NUMBERS);
        durMs = this.rng.int(260, 420);
      } else if (roll < 0.18 && this.style.keyterms.length > 0) {
        text = this.rng.pick(this.style.keyterms);
        durMs = Math.min(900, 150 + 60 * text.length);
      } else {
        const syllables = this.rng.int(1, 3);
        text = Array.from({ length: syllables }, () => this.rng.pick(SYLLABLES)).join('');
        durMs = syllables * this.rng.int(120, 190) + 40;
      }
      const confidence = Math.round((0.72 + 0.27 * this.rng.next()) * 1000) / 1000;
      this.raw.push({ startMs, endMs: startMs + durMs, text, digits, filler, confidence });
      this.cursorMs = startMs + durMs + this.rng.int(30, 110);
    }
  }

  private render(raw: readonly RawWord[], speaker?: number): SttWord[] {
    return raw
      .filter((w) => this.style.fillerWords || !w.filler)
      .map((w) => {
        const word: SttWord = {
          text: this.style.itn && w.digits ? w.digits : w.text,
          start: round3(w.startMs),
          end: round3(w.endMs),
          confidence: w.confidence,
        };
        if (speaker !== undefined) word.speaker = speaker;
        return word;
      });
  }
}
