/**
 * Capture: a device's PCM at its own rate, resampled to the rate the service wants, cut into
 * 20 ms frames, with a level about 20 times a second. A device that stops delivering (unplugged,
 * taken by the system) is reported once as a `device_lost` error value and the capture stops;
 * nothing throws.
 */
import { audioError, type AudioError, type AudioResult } from '../../shared/audio/errors';
import { FRAME_MS, FrameChunker, type CaptureFrame } from '../../shared/audio/frames';
import { LevelMeter, type Level } from '../../shared/audio/levels';
import { mixToMono } from '../../shared/audio/pcm';
import { Resampler } from '../../shared/audio/resampler';
import type { AudioBackend, AudioDevice, InputStream } from './types';

export type { CaptureFrame };

export interface CaptureOptions {
  backend: AudioBackend;
  /** A device id; null or absent for the default microphone. */
  deviceId?: string | null;
  /** The rate frames are delivered at (the service's `sample_rate`). */
  sampleRate: number;
  /** 1 (mixed down from the device) or the device's channel count for multichannel transcription. */
  channels?: number;
  /** Open the device at this rate instead of its default (a device that only supports some rates). */
  deviceRate?: number;
  /** Open the device with this many channels (mixed down to `channels`); defaults to `channels`. */
  deviceChannels?: number;
  frameMs?: number;
  /** No audio from the device for this long means it is gone. */
  stallMs?: number;
  onFrame: (frame: CaptureFrame) => void;
  onLevel?: (level: Level) => void;
  /** Called at most once; the capture has stopped when it is. */
  onError?: (error: AudioError) => void;
}

export interface CaptureStats {
  frames: number;
  deviceFrames: number;
  device: AudioDevice;
  deviceRate: number;
}

export class Capture {
  private readonly resampler: Resampler;
  private readonly chunker: FrameChunker;
  private readonly meter: LevelMeter | null;
  private readonly watchdog: ReturnType<typeof setInterval>;
  private lastDataAt = performance.now();
  private deviceFrames = 0;
  private seq = 0;
  private stopped = false;

  private constructor(
    private readonly input: InputStream,
    private readonly options: CaptureOptions,
    private readonly channels: number,
  ) {
    this.resampler = new Resampler(input.sampleRate, options.sampleRate, channels);
    this.chunker = new FrameChunker(options.sampleRate, channels, options.frameMs ?? FRAME_MS);
    this.meter = options.onLevel ? new LevelMeter(options.sampleRate, channels, options.onLevel) : null;
    const stallMs = options.stallMs ?? 1500;
    const every = Math.min(250, stallMs / 2);
    let lastTick = performance.now();
    this.watchdog = setInterval(() => {
      const now = performance.now();
      // A late tick means this thread was busy, not the device: give its queued data a chance first.
      if (now - lastTick > every * 2) this.lastDataAt = now;
      lastTick = now;
      if (now - this.lastDataAt > stallMs) this.fail(this.lostError(stallMs));
    }, every);
    input.start(
      (pcm) => this.onData(pcm),
      (error) => this.fail(error),
    );
  }

  /** Opens the device and starts delivering frames, or says why it cannot. */
  static start(options: CaptureOptions): AudioResult<Capture> {
    const channels = options.channels ?? 1;
    const opened = options.backend.openInput({
      deviceId: options.deviceId,
      sampleRate: options.deviceRate,
      channels: options.deviceChannels ?? (channels === 1 ? undefined : channels),
    });
    if (!opened.ok) return opened;
    if (channels !== 1 && opened.value.channels !== channels) {
      void opened.value.close();
      return audioError('invalid_argument', `"${opened.value.device.name}" gives ${opened.value.channels} channel(s), not ${channels}.`);
    }
    try {
      return { ok: true, value: new Capture(opened.value, options, channels) };
    } catch (error) {
      void opened.value.close();
      return audioError('invalid_argument', (error as Error).message);
    }
  }

  get stats(): CaptureStats {
    return { frames: this.seq, deviceFrames: this.deviceFrames, device: this.input.device, deviceRate: this.input.sampleRate };
  }

  /** Stops the device. Frames not yet whole are dropped. */
  async dispose(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.watchdog);
    await this.input.close();
  }

  private onData(raw: Int16Array): void {
    if (this.stopped) return;
    const capturedAt = performance.now();
    this.lastDataAt = capturedAt;
    this.deviceFrames += raw.length / this.input.channels;
    const pcm = this.channels === 1 && this.input.channels > 1 ? mixToMono(raw, this.input.channels) : raw;
    const resampled = this.resampler.push(pcm);
    this.meter?.push(resampled);
    for (const frame of this.chunker.push(resampled)) {
      if (this.stopped) return;
      const seq = this.seq++;
      this.options.onFrame({
        seq,
        pcm: frame,
        sampleRate: this.options.sampleRate,
        channels: this.channels,
        startMs: seq * this.chunker.frameMs,
        capturedAt,
      });
    }
  }

  private lostError(stallMs: number): AudioError {
    const still = this.options.backend.listDevices();
    const listed = still.ok && still.value.devices.some((d) => d.id === this.input.device.id);
    return {
      code: 'device_lost',
      message: listed
        ? `The microphone "${this.input.device.name}" stopped sending audio ${stallMs} ms ago. Check it, or pick another one.`
        : `The microphone "${this.input.device.name}" was disconnected. Plug it back in or pick another one.`,
    };
  }

  private fail(error: AudioError): void {
    if (this.stopped) return;
    void this.dispose();
    this.options.onError?.(error);
  }
}
