/**
 * What the simulated caller hears: the model's speech (µ-law 8 kHz, as the realtime socket sends
 * it down the line, call-link `JoinedCall.modelAudio`) played out in real time on the call's
 * timeline. The socket sends audio up to a second ahead of real time, so each chunk is queued
 * after the one before: it starts when it arrives or when the previous one ends, whichever is
 * later. A gap over UTTERANCE_GAP_MS between chunks starts a new utterance; a barge-in
 * (`interrupt`) drops what was queued past that moment, as a line stops playing a cut answer. `heardMs(now)` is
 * what has played by `now`. The first MAX_KEPT_MS of it are kept, for its level and a transcript
 * by the sandbox's STT (its words are synthetic; its segments come from the real audio); the
 * audio is dropped once that transcript is made when the call ends.
 */
import { decodeMulaw } from '../../../shared/audio';
import { transcribe, type SttResult } from '../stt/transcribe';
import { LINE_RATE } from './caller-audio';

/** A pause longer than this between the model's chunks ends an utterance. */
export const UTTERANCE_GAP_MS = 200;
/** Heard audio kept for the transcript and level (8 KB a second: 2 minutes is 960 KB). */
export const MAX_KEPT_MS = 120_000;

export interface Utterance {
  /** On the call's timeline (0 at the join). */
  startMs: number;
  endMs: number;
}

export interface HeardReport {
  /** Played to the caller by now. */
  ms: number;
  /** Delivered down the line, including what is still queued to play (and what an interruption dropped). */
  receivedMs: number;
  /** Answers cut short by a barge-in (their queued audio dropped). */
  interruptions: number;
  utterances: Utterance[];
  /** RMS of the kept audio in dBFS (-Infinity is written as null); null before any. */
  rmsDbfs: number | null;
  transcript: { text: string; words: number; duration: number } | null;
}

export class CallerEar {
  private readonly utterances: Array<Utterance & { gaps: Array<{ atMs: number; ms: number }> }> = [];
  private received = 0;
  private kept: Uint8Array[] = [];
  private keptBytes = 0;
  private squares = 0;
  private transcribed: { forBytes: number; result: Promise<SttResult> } | null = null;
  private interruptions = 0;

  /** Model audio arriving `nowMs` into the call. */
  push(mulaw: Uint8Array, nowMs: number): void {
    if (mulaw.length === 0) return;
    const ms = (mulaw.length * 1000) / LINE_RATE;
    this.received += ms;
    const last = this.utterances.at(-1);
    if (last && nowMs - last.endMs <= UTTERANCE_GAP_MS) {
      // A short pause inside an utterance (the next part came late): silence on the line, not heard speech.
      if (nowMs > last.endMs) last.gaps.push({ atMs: last.endMs, ms: nowMs - last.endMs });
      last.endMs = Math.max(last.endMs, nowMs) + ms;
    } else this.utterances.push({ startMs: nowMs, endMs: nowMs + ms, gaps: [] });
    const room = (MAX_KEPT_MS * LINE_RATE) / 1000 - this.keptBytes;
    if (room > 0) {
      const piece = mulaw.slice(0, room);
      this.kept.push(piece);
      this.keptBytes += piece.length;
      for (const s of decodeMulaw(piece)) this.squares += s * s;
    }
  }

  /** The answer was interrupted `nowMs` into the call: what is queued past now is dropped (never heard). */
  interrupt(nowMs: number): void {
    const last = this.utterances.at(-1);
    if (!last || last.endMs <= nowMs) return;
    if (last.startMs >= nowMs) this.utterances.pop();
    else last.endMs = nowMs;
    this.interruptions++;
  }

  /** Milliseconds played by `nowMs`. */
  heardMs(nowMs: number): number {
    let ms = 0;
    for (const u of this.utterances) {
      const until = Math.min(nowMs, u.endMs);
      ms += Math.max(0, until - u.startMs);
      for (const g of u.gaps) ms -= Math.max(0, Math.min(until, g.atMs + g.ms) - g.atMs);
    }
    return ms;
  }

  /** When the first utterance finished playing (with a pause after it), or null while it has not. */
  firstUtteranceEnd(nowMs: number, pauseMs: number): number | null {
    const first = this.utterances[0];
    if (!first) return null;
    // Later chunks of the same answer extend it: it has ended only once a pause followed it.
    return nowMs >= first.endMs + pauseMs ? first.endMs : null;
  }

  /** The kept audio through the sandbox's STT (cached while nothing new is heard). */
  private transcript(): Promise<SttResult> | null {
    if (this.keptBytes === 0) return this.transcribed?.result ?? null;
    if (this.transcribed?.forBytes !== this.keptBytes) {
      const pcm = decodeMulaw(concat(this.kept, this.keptBytes));
      this.transcribed = { forBytes: this.keptBytes, result: transcribe([pcm], LINE_RATE, { language: 'en', diarize: false, multichannel: false, style: { fillerWords: false, keyterms: [], itn: false } }) };
    }
    return this.transcribed.result;
  }

  async report(nowMs: number): Promise<HeardReport> {
    const stt = await this.transcript()?.catch(() => null);
    const rms = this.keptBytes > 0 ? Math.sqrt(this.squares / this.keptBytes) : null;
    return {
      ms: Math.round(this.heardMs(nowMs)),
      receivedMs: Math.round(this.received),
      interruptions: this.interruptions,
      utterances: this.utterances.map((u) => ({ startMs: Math.round(u.startMs), endMs: Math.round(u.endMs) })),
      rmsDbfs: rms === null || rms === 0 ? null : Math.round(20 * Math.log10(rms / 32768) * 10) / 10,
      transcript: stt ? { text: stt.text, words: stt.words?.length ?? 0, duration: stt.duration } : null,
    };
  }

  /** The call ended: the transcript is made now and the audio let go once it is. */
  finish(): void {
    const pending = this.transcript();
    const release = (): void => {
      this.kept = [];
    };
    if (pending) void pending.then(release, release);
  }
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
