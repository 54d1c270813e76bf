/**
 * Input audio transcription (`audio.input.transcription`): the events for a committed user audio
 * item. The words are made up, as all of the sandbox's transcripts are, but grounded on the real
 * speech in the item: main/sandbox/stt's transcriber finds the speech and lays seeded words over it
 * (the same audio always gives the same words, none in silence).
 *
 * Two shapes, per wire-notes §2.2: with `transcription.model` `svc-transcribe` the server sends
 * cumulative `…input_audio_transcription.updated` events (each the whole transcript so far, every
 * 500 ms of audio; the word being spoken shows partly and is corrected by the next one); otherwise
 * `…input_audio_transcription.delta` events, one a word. Both end with `…completed`
 * (with `usage: {type: "duration", seconds}`).
 */
import { transcribe } from '../../stt/transcribe';
import type { SttWord } from '../../stt/words';

export const CUMULATIVE_MODEL = 'svc-transcribe';
/** The cadence of cumulative updates, in audio (the service's interim cadence, spec Limits). */
export const UPDATE_EVERY_MS = 500;

export interface TranscriptionConfig {
  /** `audio.input.transcription.model` (absent: deltas). */
  model?: string | null;
  language_hint?: string | null;
  keyterms?: readonly string[];
}

const PREFIX = 'conversation.item.input_audio_transcription';

export type TranscriptionEvent = (
  | { type: `${typeof PREFIX}.delta`; item_id: string; content_index: number; delta: string }
  | { type: `${typeof PREFIX}.updated`; item_id: string; content_index: number; transcript: string }
  | { type: `${typeof PREFIX}.completed`; item_id: string; content_index: number; transcript: string; usage: { type: 'duration'; seconds: number } }
) & {
  /** Where in the item's audio (ms) the event's text is known: the session may pace by it. Not sent. */
  atMs: number;
};

/** Whether a session's transcription config asks for cumulative updates or deltas (null: no transcription). */
export function transcriptionMode(config: TranscriptionConfig | null | undefined): 'cumulative' | 'delta' | null {
  if (!config) return null;
  return config.model === CUMULATIVE_MODEL ? 'cumulative' : 'delta';
}

/**
 * The events for one committed item's audio (PCM16 mono at `sampleRate`), in order. Empty
 * audio (an idle timeout's silent turn) gives only a `completed` with an empty transcript.
 */
export async function transcriptionEvents(
  itemId: string,
  audio: Int16Array,
  sampleRate: number,
  config: TranscriptionConfig,
  opts: { contentIndex?: number; signal?: AbortSignal } = {},
): Promise<TranscriptionEvent[]> {
  const contentIndex = opts.contentIndex ?? 0;
  const durationMs = (audio.length * 1000) / sampleRate;
  const result =
    audio.length === 0
      ? { words: [] as SttWord[] }
      : await transcribe([audio], sampleRate, {
          language: config.language_hint ?? null,
          diarize: false,
          multichannel: false,
          style: { fillerWords: false, keyterms: config.keyterms ?? [], itn: false },
          signal: opts.signal,
        });
  const words = result.words ?? [];
  const transcript = words.map((w) => w.text).join(' ');
  const events: TranscriptionEvent[] = [];
  const base = { item_id: itemId, content_index: contentIndex };
  if (transcriptionMode(config) === 'cumulative') {
    let last = '';
    for (let t = UPDATE_EVERY_MS; t < durationMs; t += UPDATE_EVERY_MS) {
      const text = heardBy(words, t / 1000);
      if (text && text !== last) events.push({ type: `${PREFIX}.updated`, ...base, transcript: text, atMs: t });
      last = text || last;
    }
    if (transcript && transcript !== last) events.push({ type: `${PREFIX}.updated`, ...base, transcript, atMs: durationMs });
  } else {
    for (const [i, w] of words.entries()) {
      events.push({ type: `${PREFIX}.delta`, ...base, delta: (i === 0 ? '' : ' ') + w.text, atMs: Math.min(durationMs, w.end * 1000) });
    }
  }
  events.push({
    type: `${PREFIX}.completed`,
    ...base,
    transcript,
    usage: { type: 'duration', seconds: Math.round(durationMs / 10) / 100 },
    atMs: durationMs,
  });
  return events;
}

/** The transcript as heard by `t` seconds: whole words, then the one being spoken cut to its share. */
function heardBy(words: readonly SttWord[], t: number): string {
  const parts: string[] = [];
  for (const w of words) {
    if (w.end <= t) parts.push(w.text);
    else if (w.start < t) {
      const share = (t - w.start) / (w.end - w.start);
      parts.push(w.text.slice(0, Math.max(1, Math.round(w.text.length * share))));
      break;
    } else break;
  }
  return parts.join(' ');
}
