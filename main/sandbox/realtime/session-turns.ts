/**
 * The session's side of turns/ (rtturns' pure modules): the input decoder and the turn detector
 * for the session's input format and turn_detection, rebuilt when the input rate changes and
 * reconfigured when turn_detection does. The detector holds the input audio buffer (manual
 * commits and server VAD alike); the session turns its events into wire events.
 */
import { createHash } from 'node:crypto';
import { decodeMulaw, Resampler } from '../../../shared/audio';
import { newId } from './events';
import type { AudioFormat, TurnDetection } from './session-config';
import { InputDecoder } from './turns/input-audio';
import { TurnDetector, type Committed, type CommitError, type ServerVadConfig, type TurnEvent } from './turns/turn-detector';

function vadOf(td: TurnDetection | null): ServerVadConfig | null {
  return td === null ? null : { threshold: td.threshold, prefixPaddingMs: td.prefix_padding_ms, silenceDurationMs: td.silence_duration_ms };
}

/** A committed clip's length and a seed of its samples (planning, usage). */
export function clipOf(c: Committed): { ms: number; seed: string } {
  const bytes = new Uint8Array(c.audio.buffer, c.audio.byteOffset, c.audio.byteLength);
  return { ms: Math.round((c.audio.length / c.sampleRate) * 1000), seed: createHash('sha256').update(bytes).digest('hex').slice(0, 16) };
}

export class SessionTurns {
  private decoder: InputDecoder;
  private detector: TurnDetector | null = null;
  private callResampler: Resampler | null = null;
  /** Input position of the last commit or clear: in manual mode the buffer holds everything since. */
  private floorMs = 0;

  private constructor(private format: AudioFormat, private td: TurnDetection | null) {
    this.decoder = new InputDecoder(format);
  }

  static async create(format: AudioFormat, td: TurnDetection | null): Promise<SessionTurns> {
    const t = new SessionTurns(format, td);
    t.detector = await TurnDetector.create({ sampleRate: format.rate, vad: vadOf(td), newItemId: () => newId('item') });
    return t;
  }

  private get d(): TurnDetector {
    if (!this.detector) throw new Error('SessionTurns used before create() resolved');
    return this.detector;
  }

  get mode(): 'server_vad' | 'manual' {
    return this.d.mode;
  }

  /** Milliseconds of input audio taken so far (the detector's clock). */
  get positionMs(): number {
    // 0 once disposed (the socket closed while a response was finishing).
    return this.detector?.positionMs ?? 0;
  }

  /** The session changed: a new input rate rebuilds the detector (its buffer is dropped), a new turn_detection reconfigures it. */
  async update(format: AudioFormat, td: TurnDetection | null): Promise<void> {
    if (format.type !== this.format.type || format.rate !== this.format.rate) {
      this.dispose();
      this.format = format;
      this.td = td;
      this.decoder = new InputDecoder(format);
      this.callResampler = null;
      this.detector = await TurnDetector.create({ sampleRate: format.rate, vad: vadOf(td), newItemId: () => newId('item') });
      this.floorMs = 0;
      return;
    }
    if (JSON.stringify(td) !== JSON.stringify(this.td)) {
      this.td = td;
      this.d.configure(vadOf(td));
    }
  }

  append(bytes: Uint8Array): TurnEvent[] {
    return this.d.push(this.decoder.decode(bytes));
  }

  /** A SIP caller's µ-law 8 kHz audio, converted to the session's input format when it differs. */
  appendCaller(mulaw: Uint8Array): TurnEvent[] {
    if (this.format.type === 'audio/pcmu') return this.append(mulaw);
    let pcm = decodeMulaw(mulaw);
    if (this.format.rate !== 8000) {
      this.callResampler ??= new Resampler(8000, this.format.rate);
      pcm = this.callResampler.push(pcm);
    }
    return this.d.push(pcm);
  }

  /** Milliseconds a manual commit would take now (server VAD keeps only the prefix padding outside a turn). */
  get bufferedMs(): number {
    return this.positionMs - this.floorMs;
  }

  commit(minMs?: number): Committed | CommitError {
    const c = this.d.commit(minMs);
    if (!('code' in c)) this.floorMs = this.positionMs;
    return c;
  }

  clear(): void {
    this.d.clear();
    this.floorMs = this.positionMs;
  }

  dispose(): void {
    this.detector?.dispose();
    this.detector = null;
  }
}
