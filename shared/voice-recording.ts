/**
 * A native microphone recording for a voice clone's reference clip: a live session (main's
 * `voice-recording` kind) whose audio the media process captures (main/audio Capture on the
 * device the user picked) and hands to the page as 20 ms PCM16 frames on the snapshot's `pcm`
 * stream, with levels on `levels`. The page builds the clip (as it does from its own microphone);
 * main records nothing. It stops by itself at `maxMs` (a clip is at most 120 s).
 */
import { z } from 'zod';

export const VOICE_RECORDING_KIND = 'voice-recording';

export const VoiceRecordingInputSchema = z
  .object({
    /** A native device id (audio.devices); absent for the system default. */
    device: z.string().max(500).optional(),
    sampleRate: z.number().int().min(8000).max(48_000).default(16_000),
    maxMs: z.number().int().min(1000).max(120_000).default(120_000),
  })
  .strict();
export type VoiceRecordingInput = z.input<typeof VoiceRecordingInputSchema>;

/** No control messages: the recording only starts and stops. */
export const VoiceRecordingControlSchema = z.never();

export interface VoiceRecordingSnapshot {
  status: 'recording' | 'ended' | 'failed';
  /** The device's name once the media process opened it. */
  device: string | null;
  sampleRate: number;
  streams: { pcm: number; levels: number };
  /** Why it ended: the limit reached, or the device's failure explained. */
  end: { atLimit: boolean; message: string | null } | null;
}

export type VoiceRecordingEvent =
  | { type: 'device'; name: string }
  | { type: 'ended'; atLimit: boolean }
  | { type: 'failed'; message: string };

export function applyVoiceRecordingEvent(state: VoiceRecordingSnapshot, event: VoiceRecordingEvent): void {
  if (event.type === 'device') state.device = event.name;
  else if (event.type === 'ended') {
    state.status = 'ended';
    state.end = { atLimit: event.atLimit, message: null };
  } else {
    state.status = 'failed';
    state.end = { atLimit: false, message: event.message };
  }
}
