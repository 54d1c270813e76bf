/**
 * Errors of the audio layer are values: a code a program can branch on and a message a person can
 * act on. They stay plain objects so they cross the contract and the media process unchanged.
 */

export const AUDIO_ERROR_CODES = [
  'corrupt', // the bytes are not what they claim to be (a WAV with no `fmt ` chunk, a cut header)
  'unsupported', // well formed, but a format this layer does not read (8-bit WAV, ADPCM, ...)
  'invalid_argument', // a caller asked for something impossible (a rate of 0, a frame that is not whole)
  'no_device', // no such input or output device (or none at all)
  'device_lost', // the device went away while it was open (unplugged)
  'device_error', // the device refused to open or failed while running
] as const;

export type AudioErrorCode = (typeof AUDIO_ERROR_CODES)[number];

export interface AudioError {
  code: AudioErrorCode;
  message: string;
}

export type AudioResult<T> = { ok: true; value: T } | { ok: false; error: AudioError };

export function audioError(code: AudioErrorCode, message: string): { ok: false; error: AudioError } {
  return { ok: false, error: { code, message } };
}

/** The sample rates the service accepts for PCM (spec: Voice, speech to text `sample_rate`). */
export const SERVICE_SAMPLE_RATES = [8000, 16000, 22050, 24000, 44100, 48000] as const;
export type ServiceSampleRate = (typeof SERVICE_SAMPLE_RATES)[number];
