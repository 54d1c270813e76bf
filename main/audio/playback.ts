/**
 * Playback: audio from the service (any rate, mono or stereo) resampled to the device's rate,
 * through a jitter buffer, written to the device one period at a time, with silence in between
 * so the device never starves. `flush()` stops the audio at once (barge-in) and returns the
 * milliseconds of audio the listener actually heard, which the realtime console sends in
 * `conversation.item.truncate` as `audio_end_ms`.
 *
 * Positions are counted in device frames of audio (not silence): enqueued, written, played
 * (written minus what the device still holds). `markItem()` notes where the next enqueued audio
 * starts, so flush() can say how much of *that item* was heard.
 */
import { audioError, type AudioError, type AudioResult } from '../../shared/audio/errors';
import { JitterBuffer, type JitterState } from '../../shared/audio/jitter-buffer';
import { Resampler } from '../../shared/audio/resampler';
import type { AudioBackend, AudioDevice, OutputStream } from './types';

/**
 * Output settings for audio a user can interrupt (Speech's Stop, the realtime console's barge-in):
 * 2 ms writes, one queued, the device's smallest buffer, and a silence tail after a flush. What
 * naudiodon has taken cannot be taken back, so a flush falls silent once the write in flight, the
 * queued one, the one playing and the device's own buffer have played: ≈ 2.5 writes + the device
 * buffer (PortAudio's: `lowLatency` asks for ≈ 9 ms instead of 12, see naudiodon-backend.ts). The
 * tail (`flushTailMs`) pushes that audio out at once instead of 2 ms at a time behind a busy
 * process. Measured on naudiodon through the paced ALSA card (test/bench/speech-service.ts,
 * stopNative): see main/audio/README.md. Smaller writes cost more wake-ups (500 a second) and
 * leave a busy process less slack before the device starves.
 */
export const INTERRUPTIBLE_OUTPUT = { periodMs: 2, deviceQueuePeriods: 1, lowLatency: true, flushTailMs: 20 } as const;

export interface PlaybackOptions {
  backend: AudioBackend;
  deviceId?: string | null;
  /** Rate and channels of the audio passed to enqueue(). */
  sourceRate: number;
  sourceChannels?: 1 | 2;
  /** Open the device at this rate instead of its default. */
  deviceRate?: number;
  /** Audio buffered before playing starts, and after an underrun. */
  targetDepthMs?: number;
  /** Audio per device write (10 ms by default). */
  periodMs?: number;
  /**
   * Writes queued ahead of a native device (1 by default), which a flush cannot take back (nor
   * the write waiting for room, nor the device's buffer): see INTERRUPTIBLE_OUTPUT and the README.
   */
  deviceQueuePeriods?: number;
  /** Ask the device for its smallest buffer (less to play out after a flush; less slack). */
  lowLatency?: boolean;
  /**
   * After flush(), the next silent write carries this much silence in one piece (0: periods as
   * usual). What the device could not take back then reaches the listener without waiting on this
   * process for the writes behind it: a device or plugin that lets audio out only as later frames
   * push it (ALSA's file plugin, the benchmark's card) does not stretch the flush, and a card does
   * not underrun right after it. Audio enqueued after the flush waits behind it (once).
   */
  flushTailMs?: number;
  /** A write the device does not take for this long means it is gone. */
  stallMs?: number;
  /** Called at most once; playback has stopped when it is. */
  onError?: (error: AudioError) => void;
}

export interface PlaybackStats {
  state: JitterState | 'failed' | 'disposed';
  device: AudioDevice;
  deviceRate: number;
  underruns: number;
  bufferedMs: number;
  /** Audio heard since the start, in ms (written minus what the device still holds). */
  playedMs: number;
  /** performance.now() of the first write that carried audio, or null. */
  firstAudioWrittenAt: number | null;
  /** Device frames written before the first audio (silence while nothing was queued). */
  framesBeforeFirstAudio: number | null;
  framesWritten: number;
}

/** A write: where it ends in the device stream, its length, and how much of it (from its start) was audio. */
interface Written {
  end: number;
  frames: number;
  audio: number;
}

export class Playback {
  private readonly jitter: JitterBuffer;
  private readonly channels: number;
  private readonly periodFrames: number;
  private resampler: Resampler;
  private readonly recent: Written[] = [];
  private framesWritten = 0;
  /** Audio frames handed to the device, all time. */
  private audioWritten = 0;
  /** Audio frames enqueued (after resampling), in the same count as audioWritten. */
  private audioEnqueued = 0;
  /** Position of the current item's start in audio frames. */
  private itemStart = 0;
  private firstAudioWrittenAt: number | null = null;
  private framesBeforeFirstAudio: number | null = null;
  private failed: AudioError | null = null;
  private disposed = false;
  private readonly watchdog: ReturnType<typeof setInterval>;
  private writeStartedAt: number | null = null;
  /** Silence frames to write in one piece at the pump's next silent write (set by flush(), flushTailMs). */
  private tailFrames = 0;

  private constructor(
    private readonly output: OutputStream,
    private readonly options: PlaybackOptions,
  ) {
    this.channels = output.channels;
    this.periodFrames = Math.max(1, Math.round((output.sampleRate * (options.periodMs ?? 10)) / 1000));
    this.jitter = new JitterBuffer(output.sampleRate, output.channels, options.targetDepthMs ?? 60);
    this.resampler = this.newResampler();
    output.onError((error) => this.fail(error));
    const stallMs = options.stallMs ?? 1500;
    const every = Math.min(250, stallMs / 2);
    let lastTick = performance.now();
    this.watchdog = setInterval(() => {
      const now = performance.now();
      // A late tick means this thread was busy, not the device: give the write a chance first.
      if (now - lastTick > every * 2 && this.writeStartedAt !== null) this.writeStartedAt = now;
      lastTick = now;
      if (this.writeStartedAt !== null && now - this.writeStartedAt > stallMs) {
        const still = options.backend.listDevices();
        const listed = still.ok && still.value.devices.some((d) => d.id === output.device.id);
        this.fail({
          code: 'device_lost',
          message: listed
            ? `"${output.device.name}" stopped playing (it took no audio for ${stallMs} ms). Check it, or pick another output.`
            : `"${output.device.name}" was disconnected. Plug it back in or pick another output.`,
        });
      }
    }, every);
    void this.pump();
  }

  static open(options: PlaybackOptions): AudioResult<Playback> {
    const channels = options.sourceChannels ?? 1;
    if (channels !== 1 && channels !== 2) return audioError('invalid_argument', `Playback takes mono or stereo audio, not ${channels} channels.`);
    const opened = options.backend.openOutput({ deviceId: options.deviceId, sampleRate: options.deviceRate, periodMs: options.periodMs ?? 10, queuePeriods: options.deviceQueuePeriods ?? 1, lowLatency: options.lowLatency });
    if (!opened.ok) return opened;
    return { ok: true, value: new Playback(opened.value, options) };
  }

  /** Queues interleaved PCM16 at the source rate. Ignored after a failure or dispose. */
  enqueue(pcm: Int16Array): void {
    if (this.failed || this.disposed) return;
    this.push(this.resampler.push(pcm));
  }

  /** The current stretch of audio is complete: play it out to the end without waiting for the target depth. */
  end(): void {
    if (this.failed || this.disposed) return;
    this.push(this.resampler.flush());
    this.resampler = this.newResampler();
    this.jitter.end();
  }

  /** The next enqueued audio starts a new item: flush() counts what was heard from here. */
  markItem(): void {
    this.push(this.resampler.flush());
    this.resampler = this.newResampler();
    this.itemStart = this.audioEnqueued;
  }

  /**
   * Stops the audio now: drops what is buffered and what the device holds (if it can) and
   * returns how many ms of the current item were heard. Audio the device could not take back
   * still plays and is counted as heard.
   */
  flush(): number {
    this.jitter.flush();
    this.resampler = this.newResampler();
    const dropped = this.output.discard();
    // Dropped frames are the tail of what was written: take their audio back.
    const heard = this.audioWritten - this.audioIn(this.framesWritten - dropped, this.framesWritten);
    this.audioWritten = heard;
    this.framesWritten -= dropped;
    while (this.recent.length > 0 && this.recent[this.recent.length - 1].end > this.framesWritten) this.recent.pop();
    this.audioEnqueued = heard;
    const ms = (Math.max(0, heard - this.itemStart) * 1000) / this.output.sampleRate;
    this.itemStart = heard;
    this.tailFrames = Math.round((this.output.sampleRate * (this.options.flushTailMs ?? 0)) / 1000);
    return ms;
  }

  get stats(): PlaybackStats {
    const j = this.jitter.stats;
    const pending = Math.min(this.output.pendingFrames, this.framesWritten);
    const played = this.audioWritten - this.audioIn(this.framesWritten - pending, this.framesWritten);
    return {
      state: this.disposed ? 'disposed' : this.failed ? 'failed' : j.state,
      device: this.output.device,
      deviceRate: this.output.sampleRate,
      underruns: j.underruns,
      bufferedMs: (j.bufferedFrames * 1000) / this.output.sampleRate,
      playedMs: (played * 1000) / this.output.sampleRate,
      firstAudioWrittenAt: this.firstAudioWrittenAt,
      framesBeforeFirstAudio: this.framesBeforeFirstAudio,
      framesWritten: this.framesWritten,
    };
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    clearInterval(this.watchdog);
    // The pump ends by itself: its pending write resolves on close (or never, on a dead device).
    await this.output.close();
  }

  private newResampler(): Resampler {
    return new Resampler(this.options.sourceRate, this.output.sampleRate, this.options.sourceChannels ?? 1);
  }

  /** Resampled source audio -> device channels -> jitter buffer. */
  private push(pcm: Int16Array): void {
    if (pcm.length === 0) return;
    const sourceChannels = this.options.sourceChannels ?? 1;
    let out = pcm;
    if (sourceChannels !== this.channels) out = remix(pcm, sourceChannels, this.channels);
    this.audioEnqueued += out.length / this.channels;
    this.jitter.push(out);
  }

  private async pump(): Promise<void> {
    while (!this.disposed && !this.failed) {
      const read = this.jitter.read(this.periodFrames);
      const contentFrames = read.contentFrames;
      let pcm = read.pcm;
      // The first write after a flush: silence in one piece, unless new audio is already playing.
      if (this.tailFrames > 0) {
        if (contentFrames === 0 && this.tailFrames > this.periodFrames) pcm = new Int16Array(this.tailFrames * this.channels);
        this.tailFrames = 0;
      }
      const frames = pcm.length / this.channels;
      if (contentFrames > 0 && this.firstAudioWrittenAt === null) {
        this.firstAudioWrittenAt = performance.now();
        this.framesBeforeFirstAudio = this.framesWritten;
      }
      this.framesWritten += frames;
      this.audioWritten += contentFrames;
      this.recent.push({ end: this.framesWritten, frames, audio: contentFrames });
      if (this.recent.length > 256) this.recent.splice(0, this.recent.length - 128);
      this.writeStartedAt = performance.now();
      await this.output.write(pcm);
      this.writeStartedAt = null;
    }
  }

  /** Audio frames among the written frames [from, to) (audio comes first in each write). */
  private audioIn(from: number, to: number): number {
    let audio = 0;
    for (let i = this.recent.length - 1; i >= 0; i--) {
      const w = this.recent[i];
      const start = w.end - w.frames;
      if (w.end <= from) break;
      const lo = Math.max(from, start) - start;
      const hi = Math.min(to, w.end) - start;
      audio += Math.max(0, Math.min(hi, w.audio) - Math.min(lo, w.audio));
    }
    return audio;
  }

  private fail(error: AudioError): void {
    if (this.failed || this.disposed) return;
    this.failed = error;
    clearInterval(this.watchdog);
    void this.output.close();
    this.options.onError?.(error);
  }
}

/** Mono -> the device's channels (copied to each), or stereo -> mono (averaged). */
function remix(pcm: Int16Array, from: number, to: number): Int16Array {
  const frames = pcm.length / from;
  const out = new Int16Array(frames * to);
  for (let i = 0; i < frames; i++) {
    let value: number;
    if (from === 1) value = pcm[i];
    else {
      let sum = 0;
      for (let c = 0; c < from; c++) sum += pcm[i * from + c];
      value = Math.round(sum / from);
    }
    for (let c = 0; c < to; c++) out[i * to + c] = from === to ? pcm[i * from + c] : value;
  }
  return out;
}
