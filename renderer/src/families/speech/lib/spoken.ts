/**
 * Streamed speech's `audio_timestamps` (`graph_times[i]` is the [start, end] seconds of
 * `graph_chars[i]`), joined as chunks arrive; the waveform player lights them (lib/char-timestamps).
 */
import type { AudioTimestamps } from '@shared/wire/tts';

/** Joins chunks' timestamps as they stream in (times are from the utterance start, as the service sends them). */
export function appendTimestamps(into: AudioTimestamps | null, more: AudioTimestamps | null): AudioTimestamps | null {
  if (!more || more.graph_chars.length === 0) return into;
  if (!into) return { graph_chars: [...more.graph_chars], graph_times: [...more.graph_times] };
  return { graph_chars: [...into.graph_chars, ...more.graph_chars], graph_times: [...into.graph_times, ...more.graph_times] };
}
