/**
 * What a transcription run keeps in History: the service's answer as it came, the name of what
 * was sent, and the gallery item holding the audio (so History plays it offline), as the run's
 * output (`output_json`); `readTranscriptionOutput` reads it back for `ofRun`.
 */
import { sttResultSchema, type SttResult } from '../../../shared/wire/stt';

export interface TranscriptionRunOutput {
  object: 'transcription.run';
  filename: string;
  /** Gallery id of the audio sent (null: it could not be kept; `audioProblem` says why). */
  audio: string | null;
  /** Why the audio is not kept. */
  audioProblem: string | null;
  result: SttResult | null;
}

/** One line for History's list: the words' start and the audio's length. */
export function transcriptionPreview(result: SttResult): string {
  const seconds = typeof result.duration === 'number' ? ` · ${result.duration.toFixed(1)} s` : '';
  const channels = result.channels && result.channels.length > 1 ? ` · ${result.channels.length} channels` : '';
  const text = result.text.trim() || '(no speech)';
  return `${text.length > 120 ? `${text.slice(0, 120)}…` : text}${seconds}${channels}`;
}

/** What full-text search indexes: the transcript (every channel's, when there are several). */
export function transcriptionText(result: SttResult): string {
  const channels = result.channels?.map((c) => c.text ?? '').filter(Boolean) ?? [];
  return channels.length > 1 ? channels.join('\n') : result.text;
}

export function readTranscriptionOutput(value: unknown): TranscriptionRunOutput | null {
  const v = value as Partial<TranscriptionRunOutput> | null;
  if (!v || typeof v !== 'object' || v.object !== 'transcription.run' || typeof v.filename !== 'string') return null;
  const result = v.result == null ? null : sttResultSchema.safeParse(v.result);
  return { object: 'transcription.run', filename: v.filename, audio: typeof v.audio === 'string' ? v.audio : null, audioProblem: v.audioProblem ?? null, result: result?.success ? result.data : null };
}
