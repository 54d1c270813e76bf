/**
 * A microphone recording for a voice clone, kept as PCM16 frames and closed as a WAV: at most
 * 120 s (the service's limit for a reference), so the countdown reaching 0 and the clip being
 * full are the same moment. Frames past the limit are cut, never sent. Pure: the page feeds it
 * frames from PageCapture.
 */
import { encodeWav } from '@shared/audio/wav';
import { CUSTOM_VOICE_LIMITS } from '@shared/wire/voices';

/** The rate the page records at: enough for a voice, a fifth of 48 kHz's bytes. */
export const CLIP_SAMPLE_RATE = 16000;

export class ClipRecording {
  private readonly frames: Int16Array[] = [];
  private samples = 0;
  readonly maxSamples: number;

  constructor(
    readonly sampleRate = CLIP_SAMPLE_RATE,
    maxSeconds: number = CUSTOM_VOICE_LIMITS.maxReferenceSeconds,
  ) {
    this.maxSamples = Math.round(maxSeconds * sampleRate);
  }

  /** Adds a frame; returns false once the clip is full (the caller stops the microphone). */
  add(pcm: Int16Array): boolean {
    const room = this.maxSamples - this.samples;
    if (room <= 0) return false;
    const kept = pcm.length <= room ? pcm : pcm.subarray(0, room);
    this.frames.push(kept.slice());
    this.samples += kept.length;
    return this.samples < this.maxSamples;
  }

  get seconds(): number {
    return this.samples / this.sampleRate;
  }

  /** Whole seconds left until the limit (the countdown). */
  get secondsLeft(): number {
    return Math.max(0, Math.ceil((this.maxSamples - this.samples) / this.sampleRate));
  }

  get full(): boolean {
    return this.samples >= this.maxSamples;
  }

  /** The clip as a WAV file's bytes. */
  toWav(): Uint8Array {
    const all = new Int16Array(this.samples);
    let at = 0;
    for (const f of this.frames) {
      all.set(f, at);
      at += f.length;
    }
    return encodeWav({ sampleRate: this.sampleRate, channels: 1, samples: all });
  }
}
