/**
 * A native microphone for a media session: main/audio's `Capture` on the naudiodon backend (the
 * device the user chose, or the default), delivering mono PCM16 frames at the session's rate.
 * The backend loads only when a session asks for a native source, so a machine without audio
 * devices still runs page-microphone sessions. A device that vanishes ends the session with the
 * device's own message (`device_lost`), never a crash.
 */
import { Capture } from '../audio/capture';
import { createNaudiodonBackend } from '../audio/naudiodon-backend';
import type { MediaSessionContext } from './session-kinds';

export interface NativeMicrophone {
  dispose(): void;
}

export async function nativeMicrophone(
  ctx: MediaSessionContext,
  options: { sampleRate: number; device?: string | number },
  onPcm: (bytes: Uint8Array, at: number) => void,
): Promise<NativeMicrophone> {
  const backend = await createNaudiodonBackend();
  if (!backend.ok) throw new Error(backend.error.message);
  const started = Capture.start({
    backend: backend.value,
    deviceId: options.device === undefined ? null : String(options.device),
    sampleRate: options.sampleRate,
    channels: 1,
    onFrame: (frame) => onPcm(new Uint8Array(frame.pcm.buffer, frame.pcm.byteOffset, frame.pcm.byteLength), ctx.now()),
    onError: (error) => ctx.end({ code: 'unsupported', message: `The microphone stopped: ${error.message}` }),
  });
  if (!started.ok) throw new Error(started.error.message);
  const capture = started.value;
  ctx.event('device', { name: capture.stats.device.name });
  return { dispose: () => void capture.dispose() };
}
