/**
 * The playback worklet's processing, kept free of Web Audio so it can be tested: PCM16 at the
 * source rate -> the AudioContext's rate -> a jitter buffer -> float render quanta. It counts the
 * audio it rendered, so flush() can say how many ms of the current item were heard (the page's
 * output latency, a few ms, is not known here and not added).
 */
import { JitterBuffer } from '@shared/audio/jitter-buffer';
import { Resampler } from '@shared/audio/resampler';
import type { PlaybackCommand, PlaybackReply } from './messages';

export interface PlaybackCoreStats {
  underruns: number;
  bufferedMs: number;
  playedMs: number;
  state: 'idle' | 'buffering' | 'playing';
}

export class PlaybackCore {
  private readonly jitter: JitterBuffer;
  private resampler: Resampler;
  /** Audio frames (context rate) enqueued and rendered; the current item's start among them. */
  private enqueued = 0;
  private rendered = 0;
  private itemStart = 0;

  constructor(
    readonly contextRate: number,
    readonly sourceRate: number,
    targetDepthMs = 60,
  ) {
    this.jitter = new JitterBuffer(contextRate, 1, targetDepthMs);
    this.resampler = new Resampler(sourceRate, contextRate, 1);
  }

  /** Mono PCM16 at the source rate. */
  enqueue(pcm: Int16Array): void {
    this.push(this.resampler.push(pcm));
  }

  /** This stretch of audio is complete: play it to the end. */
  end(): void {
    this.push(this.resampler.flush());
    this.resampler = new Resampler(this.sourceRate, this.contextRate, 1);
    this.jitter.end();
  }

  /** The next audio enqueued starts a new item. */
  markItem(): void {
    this.push(this.resampler.flush());
    this.resampler = new Resampler(this.sourceRate, this.contextRate, 1);
    this.itemStart = this.enqueued;
  }

  /** Drops all audio not yet rendered; returns the ms of the current item that were rendered. */
  flush(): number {
    this.jitter.flush();
    this.resampler = new Resampler(this.sourceRate, this.contextRate, 1);
    const ms = (Math.max(0, this.rendered - this.itemStart) * 1000) / this.contextRate;
    this.enqueued = this.rendered;
    this.itemStart = this.rendered;
    return ms;
  }

  /** Fills one render quantum: the same audio on every output channel, silence when there is none. */
  render(outputs: Float32Array[]): void {
    if (outputs.length === 0) return;
    const { pcm, contentFrames } = this.jitter.read(outputs[0].length);
    this.rendered += contentFrames;
    for (const out of outputs) {
      for (let i = 0; i < out.length; i++) out[i] = pcm[i] / 32768;
    }
  }

  get stats(): PlaybackCoreStats {
    const j = this.jitter.stats;
    return {
      underruns: j.underruns,
      bufferedMs: (j.bufferedFrames * 1000) / this.contextRate,
      playedMs: (this.rendered * 1000) / this.contextRate,
      state: j.state,
    };
  }

  private push(pcm: Int16Array): void {
    if (pcm.length === 0) return;
    this.enqueued += pcm.length;
    this.jitter.push(pcm);
  }
}

/** Applies one command from the page; the reply to post back, if it asks for one. */
export function handleCommand(core: PlaybackCore, command: PlaybackCommand | { type: 'close' }): PlaybackReply | null {
  switch (command.type) {
    case 'enqueue':
      core.enqueue(command.pcm);
      return null;
    case 'end':
      core.end();
      return null;
    case 'mark':
      core.markItem();
      return null;
    case 'flush':
      return { type: 'flushed', id: command.id, ms: core.flush() };
    case 'stats':
      return { type: 'stats', id: command.id, stats: core.stats };
    case 'close':
      core.flush();
      return null;
  }
}

