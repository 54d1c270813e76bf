/**
 * The capture worklet's processing, kept free of Web Audio so it can be tested: float render
 * quanta at the AudioContext's rate -> PCM16 (mono, or interleaved stereo when asked: live
 * transcription of two channels) -> the service's rate -> 20 ms frames, with a level per 50 ms. The worklet (capture-worklet.ts) only feeds it and posts what it returns.
 */
import { FRAME_MS, FrameChunker } from '@shared/audio/frames';
import { LevelMeter, type Level } from '@shared/audio/levels';
import { clampInt16 } from '@shared/audio/pcm';
import { Resampler } from '@shared/audio/resampler';

export interface CoreFrame {
  seq: number;
  pcm: Int16Array;
  startMs: number;
}

export interface CaptureCoreOutput {
  frames: CoreFrame[];
  levels: Level[];
}

export class CaptureCore {
  private readonly resampler: Resampler;
  private readonly chunker: FrameChunker;
  private readonly meter: LevelMeter;
  private levels: Level[] = [];
  private seq = 0;

  constructor(
    contextRate: number,
    readonly serviceRate: number,
    readonly frameMs = FRAME_MS,
    /** 1: every input channel averaged to mono; 2: interleaved stereo (a mono input on both sides). */
    readonly outChannels: 1 | 2 = 1,
  ) {
    this.resampler = new Resampler(contextRate, serviceRate, outChannels);
    this.chunker = new FrameChunker(serviceRate, outChannels, frameMs);
    this.meter = new LevelMeter(serviceRate, outChannels, (level) => this.levels.push(level));
  }

  /** One render quantum (or any length): one Float32Array per input channel. */
  process(channels: readonly Float32Array[]): CaptureCoreOutput {
    if (channels.length === 0 || channels[0].length === 0) return { frames: [], levels: [] };
    const length = channels[0].length;
    let pcm: Int16Array;
    if (this.outChannels === 2) {
      const left = channels[0];
      const right = channels[1] ?? left;
      pcm = new Int16Array(length * 2);
      for (let i = 0; i < length; i++) {
        pcm[2 * i] = clampInt16(left[i] * 32768);
        pcm[2 * i + 1] = clampInt16(right[i] * 32768);
      }
    } else {
      pcm = new Int16Array(length);
      for (let i = 0; i < length; i++) {
        let sum = 0;
        for (const ch of channels) sum += ch[i];
        pcm[i] = clampInt16((sum / channels.length) * 32768);
      }
    }
    const resampled = this.resampler.push(pcm);
    this.meter.push(resampled);
    const frames = this.chunker.push(resampled).map((pcm) => {
      const seq = this.seq++;
      return { seq, pcm, startMs: seq * this.frameMs };
    });
    const levels = this.levels;
    this.levels = [];
    return { frames, levels };
  }
}
