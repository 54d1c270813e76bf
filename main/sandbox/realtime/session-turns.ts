/**
 * The session's side of turns/ (rtturns' `TurnTaking`: server VAD, barge-in, idle timeout, DTMF
 * with their ordering rules): the input decoder for the session's input format, a SIP caller's
 * µ-law converted when the session's input is another format, the manual-turn buffer bound, and
 * rebuilding when the input rate changes. Every method returns the TurnActions the session acts on.
 */
import { createHash } from 'node:crypto';
import { decodeMulaw, Resampler } from '../../../shared/audio';
import { newId } from './events';
import type { AudioFormat, TurnDetection } from './session-config';
import type { DtmfError } from './turns/dtmf';
import { InputDecoder } from './turns/input-audio';
import type { Committed, CommitError } from './turns/turn-detector';
import { TurnTaking, type TurnAction } from './turns/turn-taking';

/** A committed clip's length and a seed of its samples (planning, usage). */
export function clipOf(c: Committed): { ms: number; seed: string } {
  const bytes = new Uint8Array(c.audio.buffer, c.audio.byteOffset, c.audio.byteLength);
  return { ms: Math.round((c.audio.length / c.sampleRate) * 1000), seed: createHash('sha256').update(bytes).digest('hex').slice(0, 16) };
}

export class SessionTurns {
  private decoder: InputDecoder;
  private taking: TurnTaking | null = null;
  private callResampler: Resampler | null = null;
  /** Input position of the last commit or clear: in manual mode the buffer holds everything since. */
  private floorMs = 0;

  private constructor(private format: AudioFormat, private td: TurnDetection | null) {
    this.decoder = new InputDecoder(format);
  }

  static async create(format: AudioFormat, td: TurnDetection | null, nowMs: number): Promise<SessionTurns> {
    const t = new SessionTurns(format, td);
    t.taking = await TurnTaking.create({ sampleRate: format.rate, turnDetection: td, nowMs, newItemId: () => newId('item') });
    return t;
  }

  /** The TurnTaking (throws once disposed: callers check the socket first). */
  get t(): TurnTaking {
    if (!this.taking) throw new Error('SessionTurns used before create() resolved or after dispose()');
    return this.taking;
  }

  get mode(): 'server_vad' | 'manual' {
    return this.t.mode;
  }

  /** Milliseconds of input audio taken so far; 0 once disposed. */
  get positionMs(): number {
    return this.taking?.positionMs ?? 0;
  }

  /** Milliseconds a manual commit would take now (server VAD keeps only the prefix padding outside a turn). */
  get bufferedMs(): number {
    return this.positionMs - this.floorMs;
  }

  /** The session changed: a new input rate rebuilds everything (the buffer is dropped), a new turn_detection reconfigures. */
  async update(format: AudioFormat, td: TurnDetection | null, nowMs: number): Promise<void> {
    if (format.type !== this.format.type || format.rate !== this.format.rate) {
      this.dispose();
      this.format = format;
      this.td = td;
      this.decoder = new InputDecoder(format);
      this.callResampler = null;
      this.floorMs = 0;
      this.taking = await TurnTaking.create({ sampleRate: format.rate, turnDetection: td, nowMs, newItemId: () => newId('item') });
      return;
    }
    if (JSON.stringify(td) !== JSON.stringify(this.td)) {
      this.td = td;
      this.t.configure(td);
    }
  }

  append(bytes: Uint8Array, nowMs: number): TurnAction[] {
    return this.t.append(this.decoder.decode(bytes), nowMs);
  }

  /** A SIP caller's µ-law 8 kHz audio, converted to the session's input format when it differs. */
  appendCaller(mulaw: Uint8Array, nowMs: number): TurnAction[] {
    if (this.format.type === 'audio/pcmu') return this.append(mulaw, nowMs);
    let pcm = decodeMulaw(mulaw);
    if (this.format.rate !== 8000) {
      this.callResampler ??= new Resampler(8000, this.format.rate);
      pcm = this.callResampler.push(pcm);
    }
    return this.t.append(pcm, nowMs);
  }

  commit(nowMs: number): TurnAction[] | CommitError {
    const r = this.t.commit(nowMs);
    if (Array.isArray(r)) this.floorMs = this.positionMs;
    return r;
  }

  clear(): void {
    this.t.clear();
    this.floorMs = this.positionMs;
  }

  dtmf(keys: string, nowMs: number): TurnAction[] | DtmfError {
    return this.t.dtmf(keys, nowMs);
  }

  dispose(): void {
    this.taking?.dispose();
    this.taking = null;
  }
}
