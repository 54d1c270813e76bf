/**
 * A native microphone for a media session: main/audio's `Capture` on the process's audio backend
 * (naudiodon, loaded on first use and shared with the device list), the device the user chose or
 * the default, delivering PCM16 frames at the session's rate: mono (a stereo device mixed down), or
 * interleaved stereo when `channels` is 2 (the device must give two). A device that vanishes or fails
 * mid-stream is reported once to `onFailed` with a message a person can act on (the session
 * decides how to end: the transcription keeps what it has); it never throws across the device.
 */
import type { AudioError } from '../../shared/audio/errors';
import { Capture, type CaptureFrame } from '../audio/capture';
import type { MediaSessionContext } from './session-kinds';

export interface NativeMicrophone {
  readonly deviceName: string;
  dispose(): void;
}

export async function nativeMicrophone(
  ctx: MediaSessionContext,
  options: { sampleRate: number; device?: string | number; channels?: number },
  onPcm: (bytes: Uint8Array, at: number, frame: CaptureFrame) => void,
  onFailed: (error: AudioError) => void,
): Promise<NativeMicrophone> {
  const backend = await ctx.audioBackend();
  if (!backend.ok) throw new Error(backend.error.message);
  const started = Capture.start({
    backend: backend.value,
    deviceId: options.device === undefined ? null : String(options.device),
    sampleRate: options.sampleRate,
    channels: options.channels ?? 1,
    onFrame: (frame) => onPcm(new Uint8Array(frame.pcm.buffer, frame.pcm.byteOffset, frame.pcm.byteLength), ctx.now(), frame),
    onError: (error) => {
      ctx.log(`native microphone failed: ${error.code}: ${error.message}`);
      onFailed(error);
    },
  });
  if (!started.ok) throw new Error(started.error.message);
  const capture = started.value;
  ctx.event('device', { name: capture.stats.device.name });
  return { deviceName: capture.stats.device.name, dispose: () => void capture.dispose() };
}
