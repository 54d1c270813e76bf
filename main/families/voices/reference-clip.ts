/**
 * What the app can tell about a reference clip before it leaves: its kind from its first bytes
 * (the service takes WAV, MP3, FLAC and Ogg Opus) and, for a WAV, its length. A clip over 120 s or
 * a file that is not audio is refused here with a sentence that names the file, rather than after
 * the upload; the service still decodes and has the last word for the other formats.
 */
import { open } from 'node:fs/promises';
import { parseWav } from '../../../shared/audio/wav';
import { CUSTOM_VOICE_LIMITS } from '../../../shared/wire/voices';

export type ClipKind = 'wav' | 'mp3' | 'flac' | 'ogg';

const MIME: Record<ClipKind, string> = { wav: 'audio/wav', mp3: 'audio/mpeg', flac: 'audio/flac', ogg: 'audio/ogg' };

/** The clip's kind from its signature, or null when it is none the service decodes. */
export function clipKind(head: Uint8Array): ClipKind | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (head.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'wav';
  if (head.length >= 4 && ascii(0, 4) === 'fLaC') return 'flac';
  if (head.length >= 4 && ascii(0, 4) === 'OggS') return 'ogg';
  if (head.length >= 3 && ascii(0, 3) === 'ID3') return 'mp3';
  // An MPEG audio frame: 11 sync bits, layer III.
  if (head.length >= 2 && head[0] === 0xff && (head[1]! & 0xe0) === 0xe0 && (head[1]! & 0x06) === 0x02) return 'mp3';
  return null;
}

/** Largest WAV read whole to measure it (120 s of 48 kHz 16-bit stereo is 23 MB). */
const MAX_MEASURED_BYTES = 64 * 2 ** 20;

export type ClipCheck = { ok: true; kind: ClipKind; mime: string; seconds: number | null } | { ok: false; message: string };

/** Checks the clip at `path` (named `name` for the user). */
export async function checkReferenceClip(path: string, name: string, size: number): Promise<ClipCheck> {
  const max = CUSTOM_VOICE_LIMITS.maxReferenceSeconds;
  if (size === 0) return { ok: false, message: `${name} is empty; a voice needs a clip of speech (up to ${max} s).` };
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(Math.min(size, 16));
    await file.read(head, 0, head.length, 0);
    const kind = clipKind(head);
    if (!kind) return { ok: false, message: `${name} is not WAV, MP3, FLAC or Ogg Opus audio, the formats a voice can be cloned from. Convert it to one of those.` };
    if (kind !== 'wav' || size > MAX_MEASURED_BYTES) return { ok: true, kind, mime: MIME[kind], seconds: null };
    const whole = Buffer.alloc(size);
    await file.read(whole, 0, size, 0);
    const wav = parseWav(whole);
    if (!wav.ok) return { ok: false, message: `${name} cannot be read as audio: ${wav.error.message}` };
    const seconds = wav.value.durationMs / 1000;
    if (seconds > max) {
      return { ok: false, message: `${name} is ${seconds.toFixed(1)} s long; a voice is cloned from at most ${max} s of audio. Trim it to ${max} s or less.` };
    }
    if (wav.value.frames === 0) return { ok: false, message: `${name} holds no audio; a voice needs a clip of speech.` };
    return { ok: true, kind, mime: MIME[kind], seconds };
  } finally {
    await file.close();
  }
}
