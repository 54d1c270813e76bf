/**
 * The page's microphone feeding a live session: PageCapture's 20 ms PCM16 frames handed on as
 * bytes (to the media channel's `mic` stream, never through main). One start for every live kind
 * that takes the page's microphone (the realtime call, live transcription), so a refusal, a
 * missing device and an unplug read the same everywhere: as AudioError values, never thrown.
 */
import type { AudioError, AudioResult } from '@shared/audio/errors';
import type { Level } from '@shared/audio/levels';
import { PageCapture, type PageAudioEnv } from './page-capture';

export interface PageMicrophoneOptions {
  /** The rate frames are sent at (the session's input rate). */
  sampleRate: number;
  /** 2: interleaved stereo frames; default mono. */
  channels?: 1 | 2;
  /** The page microphone the user picked; null or absent for the default one. */
  deviceId?: string | null;
  /** Each frame's PCM16 bytes, in order (a view on the frame's buffer, not a copy). */
  send(pcm: Uint8Array): void;
  onLevel?: (level: Level) => void;
  /** The microphone failed after it started (unplugged, stopped by the system); called at most once. */
  onFailed(error: AudioError): void;
}

/**
 * Starts the page's microphone. Not ok with `denied` (permission refused), `no_device` (none, or
 * the chosen one is gone) or `device_error`: the caller says so and stops its session.
 */
export async function startPageMicrophone(options: PageMicrophoneOptions, env?: PageAudioEnv): Promise<AudioResult<PageCapture>> {
  return PageCapture.start(
    {
      sampleRate: options.sampleRate,
      channels: options.channels ?? 1,
      deviceId: options.deviceId ?? null,
      onFrame: (frame) => options.send(new Uint8Array(frame.pcm.buffer, frame.pcm.byteOffset, frame.pcm.byteLength)),
      onLevel: options.onLevel,
      onError: options.onFailed,
    },
    env,
  );
}
