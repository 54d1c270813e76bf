/**
 * Text -> speech parts, in order: each part is audio (mono floats at the output rate) with the
 * spoken characters it carries and their times. Text is cut into chunks of one style (sentences,
 * at most ~200 characters; the first one short when a small first chunk is asked for), each
 * synthesised by eSpeak with the voice's variant and pitch, the style's pitch/rate/amplitude and
 * the request's speed; inline tags become their own parts (silence, a vocal sound, or a breath).
 *
 * Timing is honest rather than exact: eSpeak's command line reports no word events, so within a
 * chunk characters are timed from the audio (its voiced span and its pauses at clause marks,
 * timing.ts). Chunk boundaries and tags are exact, and times only ever increase.
 */
import { Resampler } from '../../../shared/audio/resampler';
import { ESPEAK_RATE, type EspeakEngine } from './espeak';
import { parseSpeechText, styleEffect, type InlineTag, type Piece, type StyleEffect } from './markup';
import { timeCharacters } from './timing';
import type { VoiceProfile } from './voice-profiles';

export interface SpeechOrder {
  /**
   * The utterance's text, in one piece or in segments as they become ready (streaming: whole
   * sentences while more text arrives). A segment holds whole tags and closes what it opens.
   */
  segments: Iterable<string> | AsyncIterable<string>;
  /** eSpeak language voice (`en-us`). */
  language: string;
  profile: VoiceProfile;
  /** 0.7-1.5. */
  speed: number;
  sampleRate: number;
  /** Make the first chunk short (a few words): `optimize_streaming_latency: 1`. */
  smallFirstChunk?: boolean;
}

export interface SpeechPart {
  samples: Float32Array;
  /** Spoken characters in this part (tags removed). */
  chars: string[];
  /** `[start, end]` seconds per character, relative to the START OF THE UTTERANCE. */
  times: Array<[number, number]>;
  /** Seconds of audio in this part. */
  duration: number;
  /** The resampler's last samples, after every other part (no characters). */
  tail?: boolean;
}

type Chunk = { kind: 'text'; text: string; effect: StyleEffect } | { kind: 'tag'; tag: InlineTag; effect: StyleEffect };

const MAX_CHUNK = 200;
const SMALL_FIRST = 28;

/** Splits one styled text into sentence-sized chunks. */
function splitText(text: string, limit: number): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > 0) {
    let cut = rest.length;
    const sentence = /[.!?;:\n]+\s+/g;
    let m: RegExpExecArray | null;
    while ((m = sentence.exec(rest)) !== null) {
      cut = m.index + m[0].length;
      break;
    }
    if (cut > limit) {
      // Too long: cut at the last space before the limit (a clause comma preferred).
      const head = rest.slice(0, limit);
      const comma = head.lastIndexOf(', ');
      const space = head.lastIndexOf(' ');
      cut = comma > limit / 3 ? comma + 2 : space > 0 ? space + 1 : limit;
    }
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  return out;
}

function chunksOf(pieces: Piece[], smallFirst: boolean): Chunk[] {
  const chunks: Chunk[] = [];
  for (const piece of pieces) {
    const effect = styleEffect(piece.styles);
    if (piece.kind === 'tag') {
      chunks.push({ kind: 'tag', tag: piece.tag, effect });
      continue;
    }
    const limit = smallFirst && chunks.length === 0 ? SMALL_FIRST : MAX_CHUNK;
    const parts = splitText(piece.text, limit);
    if (smallFirst && chunks.length === 0 && parts.length > 0) {
      const [first, ...others] = parts;
      chunks.push({ kind: 'text', text: first, effect });
      for (const t of splitText(others.join(''), MAX_CHUNK)) chunks.push({ kind: 'text', text: t, effect });
    } else for (const t of parts) chunks.push({ kind: 'text', text: t, effect });
  }
  return chunks;
}

const HAS_SPEECH = /[\p{L}\p{N}]/u;

const VOCAL: Partial<Record<InlineTag, { text: string; pitch: number; rate: number; whisper?: boolean }>> = {
  laugh: { text: 'ha ha ha!', pitch: 15, rate: 1.2 },
  chuckle: { text: 'heh heh.', pitch: 0, rate: 1.1 },
  giggle: { text: 'hee hee hee!', pitch: 30, rate: 1.4 },
  cry: { text: 'boo hoo hoo.', pitch: -10, rate: 0.7 },
  'hum-tune': { text: 'hmm hmm, hmm hmmm.', pitch: 10, rate: 0.6 },
  sigh: { text: 'haaah.', pitch: -15, rate: 0.6, whisper: true },
  tsk: { text: 'tsk tsk.', pitch: 0, rate: 1.3, whisper: true },
};

/** Seconds of silence for the pause tags. */
const SILENCE: Partial<Record<InlineTag, number>> = { pause: 0.5, 'long-pause': 1.5 };

/** A breath, click or smack: shaped noise made here (eSpeak makes none of these). */
function noiseSound(tag: InlineTag, rate: number, seed: number): Float32Array {
  const seconds = tag === 'breath' ? 0.35 : tag === 'inhale' || tag === 'exhale' ? 0.5 : 0.06;
  const out = new Float32Array(Math.round(seconds * rate));
  let state = seed >>> 0 || 1;
  let low = 0;
  for (let i = 0; i < out.length; i++) {
    state = (state * 1664525 + 1013904223) >>> 0;
    const white = state / 2 ** 31 - 1;
    low += 0.25 * (white - low);
    const t = i / out.length;
    // Breaths swell and fade (inhale rising, exhale falling); clicks are a sharp decay.
    const env = tag === 'inhale' ? t * (1 - t) * 4 * (0.5 + t) : tag === 'exhale' ? t * (1 - t) * 4 * (1.5 - t) : tag === 'breath' ? Math.sin(Math.PI * t) : Math.exp(-t * 12);
    out[i] = (tag === 'breath' || tag === 'inhale' || tag === 'exhale' ? low * 0.25 : white * 0.5) * env;
  }
  return out;
}

function applyGain(samples: Float32Array, from: number, to: number): void {
  if (from === 1 && to === 1) return;
  for (let i = 0; i < samples.length; i++) {
    const g = from + ((to - from) * i) / Math.max(1, samples.length - 1);
    samples[i] = Math.max(-1, Math.min(1, samples[i] * g));
  }
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export class Synthesizer {
  constructor(private readonly engine: EspeakEngine) {}

  private espeak(order: SpeechOrder, text: string, effect: StyleEffect, extra = { pitch: 0, rate: 1, whisper: false }): Promise<Float32Array> {
    const variant = effect.whisper || extra.whisper ? 'whisper' : order.profile.variant;
    const wpm = Math.min(450, Math.max(80, 175 * order.speed * effect.rate * extra.rate * order.profile.rate));
    const pitch = Math.min(99, Math.max(0, order.profile.pitch + effect.pitch + extra.pitch));
    const wide = effect.wideRange;
    return this.engine.synthesize({
      voice: `${order.language}+${variant}`,
      pitch,
      wpm,
      amplitude: effect.amplitude,
      ssml: wide,
      text: wide ? `<speak><prosody range="x-high">${escapeXml(text)}</prosody></speak>` : text,
    });
  }

  /** The utterance's parts, in order, each synthesised when asked for (streaming sends one as soon as it is made). */
  async *parts(order: SpeechOrder): AsyncGenerator<SpeechPart> {
    // One streaming resampler per utterance: parts join without a click at their seams.
    const resampler = new Resampler(ESPEAK_RATE, order.sampleRate);
    let clock = 0;
    let seed = 1;
    let first = true;
    for await (const segment of order.segments) {
    const { pieces } = parseSpeechText(segment);
    const chunks = chunksOf(pieces, first && (order.smallFirstChunk ?? false));
    first = false;
    for (const chunk of chunks) {
      let audio: Float32Array;
      const chars: string[] = [];
      const times: Array<[number, number]> = [];
      if (chunk.kind === 'tag') {
        const silence = SILENCE[chunk.tag];
        const vocal = VOCAL[chunk.tag];
        if (silence !== undefined) audio = new Float32Array(Math.round((silence / order.speed) * ESPEAK_RATE));
        else if (vocal) audio = await this.espeak(order, vocal.text, chunk.effect, { pitch: vocal.pitch, rate: vocal.rate, whisper: vocal.whisper ?? false });
        else audio = noiseSound(chunk.tag, ESPEAK_RATE, seed++);
        applyGain(audio, chunk.effect.gainFrom, chunk.effect.gainTo);
      } else if (!HAS_SPEECH.test(chunk.text)) {
        // Only spaces or punctuation: nothing to say; a short beat for punctuation.
        audio = new Float32Array(/^\s*$/.test(chunk.text) ? 0 : Math.round(0.15 * ESPEAK_RATE));
        for (const ch of chunk.text) {
          chars.push(ch);
          times.push([round3(clock), round3(clock)]);
        }
      } else {
        audio = await this.espeak(order, chunk.text, chunk.effect);
        applyGain(audio, chunk.effect.gainFrom, chunk.effect.gainTo);
        const offsets = timeCharacters(chunk.text, audio, ESPEAK_RATE);
        [...chunk.text].forEach((ch, i) => {
          chars.push(ch);
          times.push([round3(clock + offsets[i][0]), round3(clock + offsets[i][1])]);
        });
      }
      const samples = resampler.pushFloat(audio);
      const duration = samples.length / order.sampleRate;
      clock += duration;
      yield { samples, chars, times, duration };
    }
    }
    const rest = resampler.flushFloat();
    yield { samples: rest, chars: [], times: [], duration: rest.length / order.sampleRate, tail: true };
  }
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
