/**
 * The live transcription session's state, events and control messages, shared by main (the live
 * kind keeps the transcript so far) and the page (its store folds the same events onto the
 * snapshot it attached with). Pure: no Node, no DOM.
 *
 * Per channel: the final segments in order (each `is_final` chunk, with `utterance` true on the
 * one that closed an utterance: `speech_final`), and the current interim text (grey on the page)
 * which a final replaces.
 */
import { z } from 'zod';
import { FileRefIdSchema } from './contract/user-files';
import { STT_LIMITS, STT_MODELS, STT_SAMPLE_RATES } from './wire/stt';

export const LIVE_TRANSCRIPTION_KIND = 'transcription';

/**
 * Why live audio is PCM only: the service takes Opus packets, but the app has no Opus encoder
 * (node_modules holds Opus decoders only), so nothing could make them from a microphone.
 */
export const LIVE_OPUS_REFUSAL =
  'Live transcription sends 16-bit PCM: the app has no Opus encoder to make Opus packets from a microphone (only decoders are installed). Leave the encoding at pcm, or transcribe an Ogg/Opus file over REST (drop it on the view).';

/** How many channels live audio may carry: mono, or interleaved stereo (one transcript per channel). */
export const LIVE_MAX_CHANNELS = 2;

/**
 * The WebSocket query a live microphone may use (PCM16, mono or interleaved stereo; the rest as the
 * spec's table). `channels: 2` sends `multichannel=true&channels=2`: the service transcribes each
 * channel on its own and the page shows one column per channel.
 */
export const LiveSttQuerySchema = z
  .object({
    /** Only pcm is sent (see LIVE_OPUS_REFUSAL); opus is named so that asking for it gets that sentence. */
    encoding: z.enum(['pcm', 'opus']).optional(),
    channels: z.union([z.literal(1), z.literal(2)], { error: `a live microphone has 1 or ${LIVE_MAX_CHANNELS} channels (interleaved stereo)` }).optional(),
    sample_rate: z.union(STT_SAMPLE_RATES.map((r) => z.literal(r)) as [z.ZodLiteral<number>, ...Array<z.ZodLiteral<number>>]).default(16_000),
    interim_results: z.boolean().optional(),
    endpointing: z.number().int().optional(),
    language: z.string().max(16).optional(),
    model: z.enum(STT_MODELS).optional(),
    diarize: z.boolean().optional(),
    keyterm: z.array(z.string()).max(STT_LIMITS.keytermsMax).optional(),
    filler_words: z.boolean().optional(),
    smart_turn: z.number().optional(),
    smart_turn_timeout: z.number().optional(),
    vad_threshold: z.number().optional(),
  })
  .strict();
export type LiveSttQuery = z.infer<typeof LiveSttQuerySchema>;

export const LiveTranscriptionInputSchema = z
  .object({
    /** The connection profile; the active one when absent. */
    connectionId: z.string().max(200).optional(),
    query: LiveSttQuerySchema,
    source: z.discriminatedUnion('kind', [
      /** The page's microphone: `device` a MediaDeviceInfo.deviceId (absent: the page's default), kept so a reload captures the same one. */
      z.object({ kind: z.literal('page'), device: z.string().max(500).optional() }).strict(),
      z.object({ kind: z.literal('native'), device: z.string().max(500).optional() }).strict(),
      /**
       * A WAV file the user chose, played as the microphone (paced: `speed` times real time) for
       * testing without a device; the session finishes at the file's end. A stereo file in a
       * two-channel session keeps its sides apart.
       */
      z.object({ kind: z.literal('file'), ref: FileRefIdSchema, speed: z.number().min(0.5, 'speed is 0.5 to 20').max(20, 'speed is 0.5 to 20').default(1) }).strict(),
    ]),
  })
  .strict();
export type LiveTranscriptionInput = z.infer<typeof LiveTranscriptionInputSchema>;

export const LiveTranscriptionControlSchema = z.discriminatedUnion('type', [
  /** Force the current utterance final (`speech_final`). */
  z.object({ type: z.literal('finalize'), channel: z.number().int().min(0).max(7).optional() }).strict(),
  z.object({ type: z.literal('mute'), muted: z.boolean() }).strict(),
]);
export type LiveTranscriptionControl = z.infer<typeof LiveTranscriptionControlSchema>;

export interface TranscriptWord {
  text: string;
  start: number;
  end: number;
  confidence: number | null;
  speaker: number | null;
}

export interface TranscriptSegment {
  text: string;
  /** Seconds into the audio, as the service said. */
  start: number | null;
  duration: number | null;
  speaker: number | null;
  words: TranscriptWord[];
  /** This segment closed an utterance (`speech_final`): the page draws a boundary after it. */
  utterance: boolean;
}

export interface ChannelTranscript {
  channel: number;
  finals: TranscriptSegment[];
  interim: string | null;
  /** Set once the service's `transcript.done` for this channel came. */
  doneDuration: number | null;
}

export type LiveTranscriptionStatus = 'connecting' | 'listening' | 'finishing' | 'ended' | 'failed';

export interface LiveTranscriptionSnapshot {
  status: LiveTranscriptionStatus;
  source: LiveTranscriptionInput['source'];
  sampleRate: number;
  /** Channels the audio carries, interleaved (1 or 2): the page captures that many. */
  audioChannels: number;
  muted: boolean;
  /** Frame streams of the media session: the page sends PCM16 on `mic`, reads levels on `levels`. */
  streams: { mic: number; levels: number };
  channels: ChannelTranscript[];
  /** Final segments dropped from the front of a very long session's snapshot (History has them all). */
  droppedSegments: number;
  /** The run in History that records this session. */
  runId: string;
  /** How it ended; `incomplete` when the socket closed mid-utterance (the transcript so far is kept). */
  end: { incomplete: boolean; message: string | null } | null;
  errors: string[];
}

/** A live run's output in History: every final segment per channel (`utterance` closes one). */
export type LiveTranscriptOutput = {
  object: 'live_transcript';
  channels: Array<{ channel: number; segments: TranscriptSegment[] }>;
};

export type LiveTranscriptionEvent =
  | { type: 'interim'; channel: number; text: string }
  | { type: 'final'; channel: number; segment: TranscriptSegment }
  | { type: 'done'; channel: number; text: string; duration: number }
  | { type: 'muted'; muted: boolean }
  | { type: 'status'; status: LiveTranscriptionStatus; end?: LiveTranscriptionSnapshot['end'] }
  | { type: 'error'; message: string };

/** A snapshot keeps at most this many final segments (per session); older ones are counted. */
export const SNAPSHOT_SEGMENTS_MAX = 2000;

function channelOf(state: LiveTranscriptionSnapshot, channel: number): ChannelTranscript {
  let found = state.channels.find((c) => c.channel === channel);
  if (!found) {
    found = { channel, finals: [], interim: null, doneDuration: null };
    state.channels.push(found);
    state.channels.sort((a, b) => a.channel - b.channel);
  }
  return found;
}

/** Applies one event to a snapshot in place (main keeps its state this way; the page its copy). */
export function applyTranscriptionEvent(state: LiveTranscriptionSnapshot, event: LiveTranscriptionEvent): void {
  switch (event.type) {
    case 'interim':
      channelOf(state, event.channel).interim = event.text;
      return;
    case 'final': {
      const channel = channelOf(state, event.channel);
      channel.interim = null;
      channel.finals.push(event.segment);
      const total = state.channels.reduce((n, c) => n + c.finals.length, 0);
      if (total > SNAPSHOT_SEGMENTS_MAX) {
        channel.finals.shift();
        state.droppedSegments++;
      }
      return;
    }
    case 'done': {
      const channel = channelOf(state, event.channel);
      channel.interim = null;
      channel.doneDuration = event.duration;
      if (event.text.trim()) channel.finals.push({ text: event.text, start: null, duration: null, speaker: null, words: [], utterance: true });
      return;
    }
    case 'muted':
      state.muted = event.muted;
      return;
    case 'status':
      state.status = event.status;
      if (event.end !== undefined) state.end = event.end;
      return;
    case 'error':
      state.errors.push(event.message);
      if (state.errors.length > 20) state.errors.shift();
      return;
  }
}

/** The transcript as plain text: finals, one utterance a line (the interim left out). */
export function transcriptText(channel: ChannelTranscript): string {
  let out = '';
  for (const segment of channel.finals) {
    if (!segment.text.trim()) continue;
    out += (out && !out.endsWith('\n') ? ' ' : '') + segment.text.trim();
    if (segment.utterance) out += '\n';
  }
  return out.trim();
}
