/**
 * The Speech family's contract: synthesis over REST (`POST /v1/tts`) and over the WebSocket
 * (`/v1/tts`), and the voices to choose from. Audio never travels through the contract as base64:
 * a finished run's audio is a gallery item (kind `audio`, in the blob store) the page loads by its
 * media URL; streamed chunks reach the page as bytes (`Uint8Array`) so it can play the first one.
 */
import { z } from 'zod';
import { call, stream } from '../../contract/define';
import type { GalleryItem } from '../../contract/gallery';
import type { AudioTimestamps, TtsCodec } from '../../wire/tts';
import { SpeechFieldsSchema } from './limits';

export { SpeechFieldsSchema, type SpeechFields, type SpeechFieldsInput } from './limits';

/** What a speech run sends the page while it lasts. */
export type SpeechRunChunk =
  | { type: 'started'; runId: string }
  /** Streaming: one `audio.delta`, its bytes in the query's codec and rate. `atMs`: since the run started. */
  | { type: 'audio'; index: number; audio: Uint8Array; timestamps: AudioTimestamps | null; duration: number | null; atMs: number }
  /** Streaming: the first audio arrived, `ms` after `text.done` went out (or after the first `text.delta`). */
  | { type: 'first-audio'; ms: number; from: 'text.done' | 'text.delta' | 'start' }
  /** Native output: the device's name once open, then the ms heard (about 10 times a second) while it plays. */
  | { type: 'device'; name: string }
  | { type: 'played'; ms: number };

export interface SpeechRunResult {
  runId: string;
  /** The audio, in the gallery (null when none arrived). A headerless codec (pcm, µ-law, A-law) is kept as WAV so it plays. */
  audio: GalleryItem | null;
  /** The codec the service sent. */
  codec: TtsCodec | null;
  contentType: string;
  /** Seconds (the service's, else estimated). */
  duration: number | null;
  /** Every character with its [start, end] seconds (chunks' timestamps joined, offset by where each chunk starts). */
  timestamps: AudioTimestamps | null;
  /** REST: how the service answered. */
  form: 'json' | 'raw' | 'stream';
  /** The socket closed or the service failed mid-utterance: the audio is what arrived before. */
  partial: { message: string } | null;
  timings: { totalMs: number; ttfbMs: number | null; firstAudioMs: number | null };
  /** Native output: the ms heard, whether Stop cut it short, and why it failed (the run itself stands). */
  played?: { ms: number; stopped: boolean; error: string | null };
  /** The spec prices no text to speech: null. */
  costTicks: number | null;
  traceId: string | null;
}

export interface SpeechVoice {
  id: string;
  name: string;
  kind: 'built-in' | 'custom';
  language: string | null;
}

export interface SpeechVoices {
  voices: SpeechVoice[];
  /** Custom voices could not be listed (the built-in ones still are), said for a person. */
  customError: string | null;
}

export const speechContract = {
  synthesize: stream<SpeechRunChunk, SpeechRunResult>()(SpeechFieldsSchema),
  stream: stream<SpeechRunChunk, SpeechRunResult>()(SpeechFieldsSchema),
  voices: call<SpeechVoices>()(z.object({ connectionId: z.string().min(1).max(64).optional() }).strict()),
  /** The result of run `runId` again (History's entry). */
  ofRun: call<SpeechRunResult | null>()(z.object({ runId: z.string().min(1).max(64) }).strict()),
};
