/**
 * Turns on the real incoming audio, as a state machine in audio time (never the wall clock): PCM
 * in at the session's input rate, events out.
 *
 * Server VAD (`turn_detection: {type: "server_vad", …}`): WebRTC's VAD (main/sandbox/stt's
 * `FrameVoicing` over the kept `@echogarden/fvad-wasm` module; mode 3; 10 ms frames at 16 kHz through
 * shared/audio's resampler) plus energy. A frame is *active* when the detector says voiced and it
 * is louder than -54 dBFS (the detector alone calls digital silence after speech voiced). A turn
 * starts when a run of active frames has ONSET_FRAMES frames louder than the threshold's gate;
 * its speech starts where that run began (a soft onset is not cut). `threshold` 0..1 maps linearly
 * onto that gate, -60 dBFS at 0 to -25 dBFS at 1 (0.85, the default, is -30 dBFS: normal speech
 * into a microphone passes it, room noise does not). The turn stops after `silence_duration_ms`
 * of frames that are not active.
 *
 * The times follow the OpenAI Realtime definitions the wire copies: `audio_start_ms` is where the
 * audio sent to the model begins, so it includes `prefix_padding_ms` (speech onset minus the
 * padding, never before the previous turn's end or a clear); `audio_end_ms` is where it ends, so
 * it includes `silence_duration_ms` (the end of the last active frame plus that silence). The
 * committed audio is exactly [audio_start_ms, audio_end_ms) of what was appended.
 *
 * Manual mode (`turn_detection: null`): nothing is detected; `commit()` hands over everything
 * appended since the last commit or clear.
 */
import { Resampler } from '../../../../shared/audio';
import { FRAME_MS, FRAME_SAMPLES, FrameVoicing, VAD_RATE, frameRms } from '../../stt/vad';
import { SampleBuffer } from './sample-buffer';

export interface ServerVadConfig {
  /** 0..1 (the wire allows 0.1-0.9; default 0.85). */
  threshold: number;
  prefixPaddingMs: number;
  silenceDurationMs: number;
}

export const DEFAULT_SERVER_VAD: ServerVadConfig = { threshold: 0.85, prefixPaddingMs: 333, silenceDurationMs: 500 };

export type TurnEvent =
  | {
      type: 'speech_started';
      itemId: string;
      /** Wire `audio_start_ms`: the committed audio's start (onset minus prefix padding). */
      audioStartMs: number;
      /** Where the detector heard speech begin. */
      speechStartMs: number;
    }
  | {
      type: 'speech_stopped';
      itemId: string;
      /** Wire `audio_end_ms`: the last speech plus `silence_duration_ms`. */
      audioEndMs: number;
      /** Where the last active frame ended. */
      speechEndMs: number;
    }
  | { type: 'committed'; itemId: string; audio: Int16Array; sampleRate: number; audioStartMs: number; audioEndMs: number };

export type Committed = Extract<TurnEvent, { type: 'committed' }>;

/** A commit with nothing (or too little) to commit; the session answers with an `error` event. */
export interface CommitError {
  code: 'input_audio_buffer_commit_empty';
  message: string;
}

/** Frames over the threshold's gate that start a turn (20 ms: one click does not). */
export const ONSET_FRAMES = 2;
/** An active frame is louder than this whatever the threshold (-54 dBFS). */
const ACTIVE_FLOOR_DBFS = -54;
/** The least audio a manual commit takes (the OpenAI rule). */
export const MIN_COMMIT_MS = 100;

/** The onset gate, dBFS, for a threshold. */
export function gateDbfs(threshold: number): number {
  return -60 + 35 * Math.min(1, Math.max(0, threshold));
}

const rmsFor = (dbfs: number) => 32768 * 10 ** (dbfs / 20);

export interface TurnDetectorOptions {
  /** The session's input rate (8000 for G.711). */
  sampleRate: number;
  /** null: manual mode. */
  vad: ServerVadConfig | null;
  /** The session's item ids (speech_started names the item the commit will create). */
  newItemId: () => string;
  /**
   * A turn this long (audio ms, padding included) is stopped and committed even if speech goes
   * on, so a line that never falls silent (hum the detector calls voiced) cannot grow the buffer
   * without end. Default MAX_TURN_MS.
   */
  maxTurnMs?: number;
}

/** 15 minutes: the input buffer's limit on the service. */
export const MAX_TURN_MS = 15 * 60 * 1000;

export class TurnDetector {
  private vad: ServerVadConfig | null;
  private readonly buffer = new SampleBuffer();
  private readonly resampler: Resampler | null;
  private pending = new Int16Array(0);
  /** 10 ms frames analysed so far (frame k covers [10k, 10k + 10) ms). */
  private frames = 0;
  /** Nothing before this sample belongs to the next turn (the last commit's end, or a clear). */
  private floorSample = 0;
  /** The run of active frames now going on, when not in a turn. */
  private runStartMs: number | null = null;
  private runLoud = 0;
  private turn: { itemId: string; audioStartMs: number; speechStartMs: number; lastActiveEndMs: number } | null = null;
  private disposed = false;

  private constructor(
    private readonly voicing: FrameVoicing,
    private readonly opts: TurnDetectorOptions,
  ) {
    this.vad = opts.vad;
    this.resampler = opts.sampleRate === VAD_RATE ? null : new Resampler(opts.sampleRate, VAD_RATE);
  }

  static async create(opts: TurnDetectorOptions): Promise<TurnDetector> {
    return new TurnDetector(await FrameVoicing.create(), opts);
  }

  get sampleRate(): number {
    return this.opts.sampleRate;
  }

  /** Milliseconds of audio appended since the session began. */
  get positionMs(): number {
    return this.toMs(this.buffer.end);
  }

  /** True between speech_started and speech_stopped. */
  get inSpeech(): boolean {
    return this.turn !== null;
  }

  get mode(): 'server_vad' | 'manual' {
    return this.vad ? 'server_vad' : 'manual';
  }

  /**
   * A `session.update` changed turn detection: a turn in progress is dropped (no speech_stopped),
   * the audio stays buffered.
   */
  configure(vad: ServerVadConfig | null): void {
    this.vad = vad;
    this.turn = null;
    this.runStartMs = null;
    this.runLoud = 0;
  }

  /** Appended audio at the input rate; returns the events it caused, in order. */
  push(pcm: Int16Array): TurnEvent[] {
    if (this.disposed) throw new Error('This turn detector was disposed.');
    this.buffer.append(pcm);
    const events: TurnEvent[] = [];
    // The detector runs in manual mode too, so a switch to server VAD starts in step.
    const resampled = this.resampler ? this.resampler.push(pcm) : pcm;
    const all = this.pending.length === 0 ? resampled : concat(this.pending, resampled);
    let at = 0;
    for (; at + FRAME_SAMPLES <= all.length; at += FRAME_SAMPLES) this.frame(all.subarray(at, at + FRAME_SAMPLES), events);
    this.pending = all.slice(at);
    if (!this.turn) this.trim();
    return events;
  }

  /**
   * `input_audio_buffer.commit`: everything since the last commit or clear. `minMs` 0 for the
   * silent user turn of an idle timeout (in server VAD mode only the prefix padding is kept).
   */
  commit(minMs = MIN_COMMIT_MS): Committed | CommitError {
    const from = Math.max(this.floorSample, this.buffer.start);
    const to = this.buffer.end;
    const ms = this.toMs(to - from);
    if (ms < minMs) {
      return { code: 'input_audio_buffer_commit_empty', message: `The input audio buffer holds ${ms} ms of audio; commit needs at least ${minMs} ms. Append audio first.` };
    }
    this.turn = null;
    this.runStartMs = null;
    this.runLoud = 0;
    return this.cut(this.opts.newItemId(), from, to);
  }

  /** `input_audio_buffer.clear`: drops the buffered audio and any turn in progress (no events). */
  clear(): void {
    this.floorSample = this.buffer.end;
    this.turn = null;
    this.runStartMs = null;
    this.runLoud = 0;
    this.trim();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.voicing.dispose();
  }

  private frame(samples: Int16Array, events: TurnEvent[]): void {
    const startMs = this.frames * FRAME_MS;
    this.frames++;
    const vad = this.vad;
    if (!vad) return;
    const rms = frameRms(samples);
    const active = rms >= rmsFor(ACTIVE_FLOOR_DBFS) && this.voicing.voiced(samples);
    const endMs = startMs + FRAME_MS;
    if (this.turn) {
      if (active) this.turn.lastActiveEndMs = endMs;
      if (!active && endMs - this.turn.lastActiveEndMs >= vad.silenceDurationMs) this.stop(events);
      else if (endMs - this.turn.audioStartMs >= (this.opts.maxTurnMs ?? MAX_TURN_MS)) this.stop(events, endMs);
      return;
    }
    if (!active) {
      this.runStartMs = null;
      this.runLoud = 0;
      return;
    }
    this.runStartMs ??= startMs;
    if (rms >= rmsFor(gateDbfs(vad.threshold))) this.runLoud++;
    if (this.runLoud < ONSET_FRAMES) return;
    const speechStartMs = Math.max(this.runStartMs, this.toMs(this.floorSample));
    const audioStartMs = Math.max(speechStartMs - vad.prefixPaddingMs, this.toMs(this.floorSample), this.toMs(this.buffer.start));
    this.turn = { itemId: this.opts.newItemId(), audioStartMs, speechStartMs, lastActiveEndMs: endMs };
    this.runStartMs = null;
    this.runLoud = 0;
    events.push({ type: 'speech_started', itemId: this.turn.itemId, audioStartMs, speechStartMs });
  }

  /** Ends the turn: after its silence, or cut at `atMs` when it grew too long. */
  private stop(events: TurnEvent[], atMs?: number): void {
    const turn = this.turn!;
    this.turn = null;
    const audioEndMs = atMs ?? turn.lastActiveEndMs + this.vad!.silenceDurationMs;
    events.push({ type: 'speech_stopped', itemId: turn.itemId, audioEndMs, speechEndMs: turn.lastActiveEndMs });
    events.push(this.cut(turn.itemId, this.toSample(turn.audioStartMs), this.toSample(audioEndMs)));
  }

  private cut(itemId: string, from: number, to: number): Committed {
    const audio = this.buffer.slice(from, to);
    this.floorSample = to;
    this.trim();
    return { type: 'committed', itemId, audio, sampleRate: this.opts.sampleRate, audioStartMs: this.toMs(from), audioEndMs: this.toMs(to) };
  }

  /** Nothing before the floor is needed; outside a turn, only the prefix padding before the current run. */
  private trim(): void {
    let keepFrom = this.floorSample;
    if (this.vad) {
      const fromMs = (this.runStartMs ?? this.toMs(this.buffer.end)) - this.vad.prefixPaddingMs - 2 * FRAME_MS;
      keepFrom = Math.max(keepFrom, this.toSample(fromMs));
    }
    this.buffer.dropBefore(keepFrom);
  }

  private toMs(samples: number): number {
    return Math.round((samples * 1000) / this.opts.sampleRate);
  }

  private toSample(ms: number): number {
    return Math.round((ms * this.opts.sampleRate) / 1000);
  }
}

function concat(a: Int16Array, b: Int16Array): Int16Array {
  const out = new Int16Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
