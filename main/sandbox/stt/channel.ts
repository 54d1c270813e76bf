/**
 * One channel of a transcription, as a state machine with no I/O: PCM in (any length, at the
 * channel's rate), events out, time counted in audio (10 ms detector frames), never the wall clock,
 * so a stream paced in real time and a file read at once give the same events.
 *
 * - Speech segments: runs of detector speech; a pause of SEGMENT_GAP_MS closes one (ending at its
 *   last speech frame). Words are laid out inside them (words.ts), speakers by pitch (speakers.ts).
 * - Utterance: everything since the last final. `endpointing` ms of silence after speech ends it
 *   with `speech_final` (0: the first silent frame); with Smart Turn a confidence below the
 *   threshold demotes it to a chunk final and the turn stays open (until `smart_turn_timeout` more
 *   silence, when an empty `speech_final` closes it).
 * - Long speech is cut into `is_final` chunks every CHUNK_MS; interim results (`is_final: false`)
 *   every INTERIM_MS of audio while speech is open.
 */
import { estimatePitch, median, PITCH_WINDOW, turnConfidence } from './pitch';
import { SpeakerClusters } from './speakers';
import { Vad, FRAME_MS, FRAME_SAMPLES, type VadFrame } from './vad';
import { SEED_SAMPLES, SegmentLayout, seedFromAudio, type SttWord, type WordStyle } from './words';

export const SEGMENT_GAP_MS = 150;
export const CHUNK_MS = 3000;
export const INTERIM_MS = 500;
/** Pitch points kept for the end-of-turn guess (about 4 s of voiced speech). */
const MAX_PITCH_TAIL = 200;

export interface ChannelOptions {
  sampleRate: number;
  vadThreshold: number;
  interimResults: boolean;
  endpointingMs: number;
  /** Smart Turn threshold, or null when off. */
  smartTurn: number | null;
  smartTurnTimeoutMs: number | null;
  diarize: boolean;
  style: WordStyle;
}

export interface PartialEvent {
  type: 'transcript.partial';
  text: string;
  words: SttWord[];
  is_final: boolean;
  speech_final: boolean;
  /** The window this result covers, in seconds of audio. */
  start: number;
  duration: number;
  end_of_turn_confidence?: number;
  /** With diarize. */
  speaker?: number;
}

export interface DoneEvent {
  type: 'transcript.done';
  text: string;
  words: SttWord[];
  duration: number;
}

interface OpenSegment {
  startMs: number;
  lastSpeechEndMs: number;
  seedParts: Int16Array[];
  seedLength: number;
  layout: SegmentLayout | null;
  pitches: Array<{ atMs: number; f0: number }>;
  /** Words of this segment already sent in an `is_final` chunk. */
  emitted: number;
}

const sec = (ms: number) => Math.round(ms) / 1000;
export const round2 = (s: number) => Math.round(s * 100) / 100;

export class ChannelTranscriber {
  private timeMs = 0;
  private samples = 0;
  private open: OpenSegment | null = null;
  private silenceMs = 0;
  /** Final words of closed segments not yet sent. */
  private unsent: SttWord[] = [];
  private windowStartMs = 0;
  private lastInterimMs = 0;
  /** Speech heard since the last final. */
  private utterance = false;
  /** A speech_final demoted by Smart Turn: the turn is open until more speech or the timeout. */
  private demotedAtMs: number | null = null;
  private readonly speakers = new SpeakerClusters();
  private readonly history: Int16Array[] = [];
  /** Pitch points of the segments since the last final, for the end-of-turn guess. */
  private pitchTail: Array<{ atMs: number; f0: number }> = [];

  private constructor(
    private readonly opts: ChannelOptions,
    private readonly vad: Vad,
  ) {}

  static async create(opts: ChannelOptions): Promise<ChannelTranscriber> {
    return new ChannelTranscriber(opts, await Vad.create(opts.sampleRate, opts.vadThreshold));
  }

  /** Seconds of audio received (exact: samples / rate). */
  get durationSeconds(): number {
    return this.samples / this.opts.sampleRate;
  }

  push(pcm: Int16Array): PartialEvent[] {
    this.samples += pcm.length;
    const events: PartialEvent[] = [];
    for (const frame of this.vad.push(pcm)) this.frame(frame, events);
    return events;
  }

  /** `finalize`: whatever is pending becomes a speech_final now (the session stays open). */
  finalize(): PartialEvent[] {
    const speaking = this.open !== null && this.silenceMs === 0;
    this.closeSegment(speaking ? this.timeMs : undefined);
    const events: PartialEvent[] = [];
    this.final(events, true, false);
    return events;
  }

  /** `audio.done`: the rest of the audio as the channel's transcript.done. */
  done(): DoneEvent {
    this.closeSegment(this.silenceMs === 0 ? this.timeMs : undefined);
    const words = this.take();
    this.vad.dispose();
    return { type: 'transcript.done', text: textOf(words), words, duration: round2(this.durationSeconds) };
  }

  dispose(): void {
    this.vad.dispose();
  }

  private frame(frame: VadFrame, events: PartialEvent[]): void {
    this.timeMs += FRAME_MS;
    const t = this.timeMs;
    this.history.push(frame.samples);
    if (this.history.length > PITCH_WINDOW / FRAME_SAMPLES) this.history.shift();
    if (frame.speech) {
      this.silenceMs = 0;
      this.demotedAtMs = null;
      if (!this.utterance) {
        this.utterance = true;
        this.lastInterimMs = Math.max(this.lastInterimMs, this.windowStartMs);
      }
      this.open ??= { startMs: t - FRAME_MS, lastSpeechEndMs: t, seedParts: [], seedLength: 0, layout: null, pitches: [], emitted: 0 };
      this.grow(this.open, frame, t);
    } else {
      this.silenceMs += FRAME_MS;
      if (this.open && this.silenceMs >= SEGMENT_GAP_MS) this.closeSegment();
    }
    if (this.utterance && !frame.speech && this.silenceMs >= Math.max(this.opts.endpointingMs, FRAME_MS)) {
      this.closeSegment();
      this.final(events, true, true);
    } else if (this.demotedAtMs !== null && this.opts.smartTurnTimeoutMs !== null && t - this.demotedAtMs >= this.opts.smartTurnTimeoutMs) {
      this.final(events, true, false);
    } else if (this.utterance && t - this.windowStartMs >= CHUNK_MS) {
      this.chunk(events);
    } else if (this.utterance && this.opts.interimResults && t - this.lastInterimMs >= INTERIM_MS) {
      this.interim(events);
    }
  }

  private grow(seg: OpenSegment, frame: VadFrame, t: number): void {
    seg.lastSpeechEndMs = t;
    if (!seg.layout) {
      seg.seedParts.push(frame.samples);
      seg.seedLength += frame.samples.length;
      if (seg.seedLength >= SEED_SAMPLES) this.startLayout(seg);
    }
    // Pitch (for speakers and the end of a turn only) every other frame is plenty for a median
    // and an end-of-phrase slope.
    const wanted = this.opts.diarize || this.opts.smartTurn !== null;
    if (wanted && (t / FRAME_MS) % 2 === 0 && this.history.length * FRAME_SAMPLES >= PITCH_WINDOW) {
      const f0 = estimatePitch(concat(this.history));
      if (f0 !== null) {
        seg.pitches.push({ atMs: t, f0 });
        this.pitchTail.push({ atMs: t, f0 });
        // Long speech with no final: only the last few seconds matter for the turn's end.
        if (this.pitchTail.length > MAX_PITCH_TAIL) this.pitchTail.shift();
      }
    }
  }

  private startLayout(seg: OpenSegment): SegmentLayout {
    seg.layout = new SegmentLayout(seedFromAudio(concat(seg.seedParts)), seg.startMs, this.opts.style);
    seg.seedParts = [];
    return seg.layout;
  }

  /** Ends the open segment at `endMs` (default its last speech) and queues its remaining words. */
  private closeSegment(endMs?: number): void {
    const seg = this.open;
    if (!seg) return;
    this.open = null;
    const end = endMs ?? seg.lastSpeechEndMs;
    const layout = seg.layout ?? this.startLayout(seg);
    const speaker = this.speakers.assign(median(seg.pitches.map((p) => p.f0)));
    const words = layout.finish(end, this.opts.diarize ? speaker : undefined).slice(seg.emitted);
    this.unsent.push(...words);
  }

  private openWords(complete: boolean): SttWord[] {
    const seg = this.open;
    if (!seg?.layout) return [];
    const speaker = this.opts.diarize ? this.speakers.peek(median(seg.pitches.map((p) => p.f0))) : undefined;
    const words = seg.layout.completeUntil(this.timeMs, speaker).slice(seg.emitted);
    if (!complete) {
      const partial = seg.layout.inProgress(this.timeMs, speaker);
      if (partial) words.push(partial);
    }
    return words;
  }

  private lastSpeaker(): number {
    const seg = this.open;
    return seg ? this.speakers.peek(median(seg.pitches.map((p) => p.f0))) : this.speakers.peek(null);
  }

  private take(): SttWord[] {
    const words = this.unsent;
    this.unsent = [];
    return words;
  }

  private event(words: SttWord[], isFinal: boolean, speechFinal: boolean): PartialEvent {
    const ev: PartialEvent = {
      type: 'transcript.partial',
      text: textOf(words),
      words,
      is_final: isFinal,
      speech_final: speechFinal,
      start: sec(this.windowStartMs),
      duration: sec(this.timeMs - this.windowStartMs),
    };
    // With diarize the result says who is speaking too (the spec's `speaker` on partials): the
    // speaker of its last word, else of the speech heard last.
    if (this.opts.diarize) ev.speaker = words.at(-1)?.speaker ?? this.lastSpeaker();
    // With Smart Turn every result says how likely the turn is over at that point.
    if (this.opts.smartTurn !== null) ev.end_of_turn_confidence = turnConfidence(this.pitchTail, this.silenceMs);
    return ev;
  }

  /** A final: a speech_final (maybe demoted by Smart Turn) or, with speechFinal false, a chunk. */
  private final(events: PartialEvent[], speechFinal: boolean, mayDemote: boolean): void {
    const words = this.take();
    const ev = this.event(words, true, speechFinal);
    if (this.opts.smartTurn !== null) {
      if (mayDemote && (ev.end_of_turn_confidence ?? 0) < this.opts.smartTurn) {
        ev.speech_final = false;
        this.demotedAtMs = this.timeMs;
      } else {
        this.demotedAtMs = null;
      }
    }
    events.push(ev);
    this.windowStartMs = this.timeMs;
    this.lastInterimMs = this.timeMs;
    this.utterance = false;
    this.pitchTail = [];
  }

  private chunk(events: PartialEvent[]): void {
    const closed = this.take();
    const fromOpen = this.openWords(true);
    if (this.open) this.open.emitted += fromOpen.length;
    events.push(this.event([...closed, ...fromOpen], true, false));
    this.windowStartMs = this.timeMs;
    this.lastInterimMs = this.timeMs;
  }

  private interim(events: PartialEvent[]): void {
    events.push(this.event([...this.unsent, ...this.openWords(false)], false, false));
    this.lastInterimMs = this.timeMs;
  }
}

export function textOf(words: readonly SttWord[]): string {
  return words.map((w) => w.text).join(' ');
}

function concat(parts: readonly Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
