/**
 * The capture worklet's processing, kept free of Web Audio so it can be tested: float render
 * quanta at the AudioContext's rate -> mono PCM16 -> the service's rate -> 20 ms frames, with a
 * level per 50 ms. The worklet (capture-worklet.ts) only feeds it and posts what it returns.
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
  ) {
    this.resampler = new Resampler(contextRate, serviceRate, 1);
    this.chunker = new FrameChunker(serviceRate, 1, frameMs);
    this.meter = new LevelMeter(serviceRate, 1, (level) => this.levels.push(level));
  }

  /** One render quantum (or any length): one Float32Array per input channel, averaged to mono. */
  process(channels: readonly Float32Array[]): CaptureCoreOutput {
    if (channels.length === 0 || channels[0].length === 0) return { frames: [], levels: [] };
    const length = channels[0].length;
    const mono = new Int16Array(length);
    for (let i = 0; i < length; i++) {
      let sum = 0;
      for (const ch of channels) sum += ch[i];
      mono[i] = clampInt16((sum / channels.length) * 32768);
    }
    const resampled = this.resampler.push(mono);
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
