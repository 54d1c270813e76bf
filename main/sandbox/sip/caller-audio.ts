/**
 * What the simulated caller says, as the phone line carries it: G.711 µ-law at 8 kHz (one byte a
 * sample, 160 bytes per 20 ms). From `script.say` through the sandbox's synthesiser (eSpeak, the
 * caller's voice `leo`, the language found from the text's script), or from `script.audio_file_id`
 * through the Files store and the audio decoders (any channels and rate: mixed to mono and
 * resampled). Made once, when the call is placed, so a bad file is an error of the placing
 * request and the audio is ready the moment the call is joined.
 */
import { readFile } from 'node:fs/promises';
import { encodeMulaw } from '../../../shared/audio/g711';
import { float32ToInt16 } from '../../../shared/audio/pcm';
import { Resampler } from '../../../shared/audio/resampler';
import { mixToMono, type AudioDecoder } from '../audio/decode';
import type { Clock } from '../clock';
import { fileGoneMessage, type FileStore } from '../files/store';
import type { TtsService } from '../tts/service';

export const LINE_RATE = 8000;
export const FRAME_MS = 20;
export const FRAME_BYTES = (LINE_RATE * FRAME_MS) / 1000;
/** µ-law code of a zero sample. */
export const MULAW_SILENCE = 0xff;
/** The caller's voice: a built-in one unlike the model's default (eve). */
export const CALLER_VOICE = 'leo';
/** Longest caller audio from a file (the call keeps it in memory: 8 KB a second). */
export const MAX_CALLER_AUDIO_SECONDS = 3600;

export type CallerAudioResult = { ok: true; audio: Uint8Array } | { ok: false; status: 400 | 404; message: string };

export interface CallerAudioDeps {
  tts: TtsService;
  files: FileStore;
  decoder: AudioDecoder;
  clock: Clock;
}

/** Pads µ-law bytes with silence to whole 20 ms frames. */
export function padToFrames(audio: Uint8Array): Uint8Array {
  const frames = Math.ceil(audio.length / FRAME_BYTES);
  if (frames * FRAME_BYTES === audio.length) return audio;
  const out = new Uint8Array(frames * FRAME_BYTES).fill(MULAW_SILENCE);
  out.set(audio);
  return out;
}

/** The text spoken by the caller's voice, as µ-law 8 kHz. */
export async function sayAudio(deps: CallerAudioDeps, team: string, text: string, signal?: AbortSignal): Promise<CallerAudioResult> {
  const profile = deps.tts.profile(team, CALLER_VOICE);
  const language = deps.tts.language('auto', text);
  const settings = { voice: CALLER_VOICE, language: 'auto', format: { codec: 'mulaw', sampleRate: LINE_RATE, bitRate: 64000 } as const, speed: 1, optimizeStreamingLatency: 0, textNormalization: false, withTimestamps: false };
  const parts: Uint8Array[] = [];
  for await (const part of deps.tts.utterance([text], settings, profile, language, signal)) parts.push(part.bytes);
  return { ok: true, audio: padToFrames(Buffer.concat(parts)) };
}

/** A file of the team (WAV, MP3, FLAC, Ogg Opus) as µ-law 8 kHz mono. */
export async function fileAudio(deps: CallerAudioDeps, team: string, fileId: string): Promise<CallerAudioResult> {
  const found = deps.files.lookup(fileId, team, deps.clock.now());
  if (found.state !== 'found') return { ok: false, status: 404, message: `script.audio_file_id: ${fileGoneMessage(fileId, found.state)}` };
  const bytes = await readFile(deps.files.pathOf(fileId));
  const decoded = await deps.decoder.decodeFile(bytes);
  if (!decoded.ok) return { ok: false, status: 400, message: `script.audio_file_id ${fileId} cannot be the caller's audio: ${decoded.error.message}` };
  if (decoded.audio.duration > MAX_CALLER_AUDIO_SECONDS) {
    return { ok: false, status: 400, message: `script.audio_file_id ${fileId} is ${Math.round(decoded.audio.duration)} seconds long; a simulated caller speaks at most ${MAX_CALLER_AUDIO_SECONDS} seconds` };
  }
  const mono = mixToMono(decoded.audio);
  let line: Float32Array = mono;
  if (decoded.audio.sampleRate !== LINE_RATE) {
    const resampler = new Resampler(decoded.audio.sampleRate, LINE_RATE);
    const head = resampler.pushFloat(mono);
    const tail = resampler.flushFloat();
    line = new Float32Array(head.length + tail.length);
    line.set(head);
    line.set(tail, head.length);
  }
  return { ok: true, audio: padToFrames(encodeMulaw(float32ToInt16(line))) };
}
