/**
 * The page's microphone behind the same shape as native capture (main/audio/capture.ts):
 * getUserMedia -> an AudioWorklet -> 20 ms PCM16 frames at the service's rate, and levels about
 * 20 times a second. For browser mode and when the user picks the page's microphone. Failures
 * (denied, no microphone, unplugged) come back as AudioError values.
 */
import type { AudioError, AudioResult } from '@shared/audio/errors';
import { FRAME_MS, type CaptureFrame } from '@shared/audio/frames';
import type { Level } from '@shared/audio/levels';
import captureWorkletUrl from './capture-worklet.ts?worker&url';
import { CAPTURE_PROCESSOR, type CaptureMessage, type CaptureProcessorOptions } from './messages';

export interface PageCaptureOptions {
  /** The rate frames are delivered at (the service's `sample_rate`). */
  sampleRate: number;
  /** A MediaDeviceInfo.deviceId; absent for the default microphone. */
  deviceId?: string | null;
  frameMs?: number;
  /** 2: interleaved stereo frames (a stereo microphone's two sides; a mono one is heard on both); default mono. */
  channels?: 1 | 2;
  /**
   * The browser's call processing (echo cancellation, noise suppression, gain control): on by
   * default for a mono microphone (a call through speakers needs it), off for stereo (Chromium's
   * echo canceller mixes the input down to mono, so the two sides would be the same) and off
   * when asked (a voice clip to clone should keep the voice as it is).
   */
  voiceProcessing?: boolean;
  onFrame: (frame: CaptureFrame) => void;
  onLevel?: (level: Level) => void;
  /** Called at most once; capture has stopped when it is. */
  onError?: (error: AudioError) => void;
}

/** What the page needs from the browser; tests pass fakes. */
export interface PageAudioEnv {
  getUserMedia(constraints: MediaStreamConstraints): Promise<MediaStream>;
  createContext(): AudioContext;
  createWorkletNode(context: AudioContext, name: string, options: AudioWorkletNodeOptions): AudioWorkletNode;
  workletUrl: string;
}

export function browserEnv(workletUrl = captureWorkletUrl): PageAudioEnv {
  return {
    getUserMedia: (c) => {
      if (!navigator.mediaDevices?.getUserMedia) return Promise.reject(Object.assign(new Error('no mediaDevices'), { name: 'NotSupportedError' }));
      return navigator.mediaDevices.getUserMedia(c);
    },
    createContext: () => new AudioContext({ latencyHint: 'interactive' }),
    createWorkletNode: (context, name, options) => new AudioWorkletNode(context, name, options),
    workletUrl,
  };
}

/** Turns a getUserMedia rejection into an error a person can act on. */
export function microphoneError(error: unknown): AudioError {
  const name = (error as { name?: string })?.name ?? '';
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return { code: 'denied', message: 'Microphone access was refused. Allow it for this app (the browser or system settings), then try again.' };
    case 'NotFoundError':
    case 'OverconstrainedError':
      return { code: 'no_device', message: 'No microphone found (or the chosen one is gone). Plug one in or pick another.' };
    case 'NotReadableError':
      return { code: 'device_error', message: 'The microphone is in use by another program or failed to start. Close that program or pick another microphone.' };
    case 'NotSupportedError':
      return { code: 'no_device', message: 'This page cannot use a microphone here (it needs a secure context). Use the native microphone instead.' };
    default:
      return { code: 'device_error', message: `The microphone could not start: ${(error as Error)?.message ?? String(error)}` };
  }
}

/** The getUserMedia audio constraints for these options. */
export function captureConstraints(options: Pick<PageCaptureOptions, 'deviceId' | 'channels' | 'voiceProcessing'>): MediaTrackConstraints {
  const channels = options.channels ?? 1;
  const processing = options.voiceProcessing ?? channels === 1;
  return {
    deviceId: options.deviceId ? { exact: options.deviceId } : undefined,
    channelCount: channels,
    echoCancellation: processing,
    noiseSuppression: processing,
    autoGainControl: processing,
  };
}

export class PageCapture {
  private stopped = false;
  private count = 0;

  private constructor(
    private readonly stream: MediaStream,
    private readonly context: AudioContext,
    private readonly node: AudioWorkletNode,
    private readonly options: PageCaptureOptions,
  ) {
    node.port.onmessage = (event: MessageEvent<CaptureMessage>) => {
      if (this.stopped) return;
      const message = event.data;
      if (message.type === 'frame') {
        this.count++;
        options.onFrame({ seq: message.seq, pcm: message.pcm, sampleRate: options.sampleRate, channels: options.channels ?? 1, startMs: message.startMs, capturedAt: performance.now() });
      } else {
        options.onLevel?.(message.level);
      }
    };
    for (const track of stream.getAudioTracks()) {
      track.addEventListener('ended', () => this.fail({ code: 'device_lost', message: `The microphone "${track.label || 'microphone'}" was disconnected. Plug it back in or pick another one.` }));
    }
  }

  static async start(options: PageCaptureOptions, env: PageAudioEnv = browserEnv()): Promise<AudioResult<PageCapture>> {
    let stream: MediaStream;
    try {
      stream = await env.getUserMedia({ audio: captureConstraints(options) });
    } catch (error) {
      return { ok: false, error: microphoneError(error) };
    }
    const context = env.createContext();
    try {
      await context.audioWorklet.addModule(env.workletUrl);
      const channels = options.channels ?? 1;
      const processorOptions: CaptureProcessorOptions = { serviceRate: options.sampleRate, frameMs: options.frameMs ?? FRAME_MS, channels };
      // 'explicit' keeps a stereo input's two sides apart (and spreads a mono one on both) instead of Web Audio's max-of-inputs default.
      const node = env.createWorkletNode(context, CAPTURE_PROCESSOR, { numberOfInputs: 1, numberOfOutputs: 0, channelCount: channels, channelCountMode: 'explicit', processorOptions });
      context.createMediaStreamSource(stream).connect(node);
      return { ok: true, value: new PageCapture(stream, context, node, options) };
    } catch (error) {
      for (const track of stream.getTracks()) track.stop();
      void context.close();
      return { ok: false, error: { code: 'device_error', message: `The page's audio could not start: ${(error as Error).message}` } };
    }
  }

  get stats(): { frames: number; contextRate: number } {
    return { frames: this.count, contextRate: this.context.sampleRate };
  }

  async dispose(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.node.port.onmessage = null;
    this.node.disconnect();
    for (const track of this.stream.getTracks()) track.stop();
    await this.context.close();
  }

  private fail(error: AudioError): void {
    if (this.stopped) return;
    void this.dispose();
    this.options.onError?.(error);
  }
}
