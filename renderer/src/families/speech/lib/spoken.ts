/**
 * Streamed speech's `audio_timestamps` (`graph_times[i]` is the [start, end] seconds of
 * `graph_chars[i]`), joined as chunks arrive so the view lights characters while the stream plays;
 * the waveform player lights them (lib/char-timestamps).
 */
import type { AudioTimestamps } from '@shared/wire/tts';

/** Joins chunks' timestamps as they stream in (times are from the utterance start, as the service sends them). */
export function appendTimestamps(into: AudioTimestamps | null, more: AudioTimestamps | null): AudioTimestamps | null {
  if (!more || more.graph_chars.length === 0) return into;
  if (!into) return { graph_chars: [...more.graph_chars], graph_times: [...more.graph_times] };
  return { graph_chars: [...into.graph_chars, ...more.graph_chars], graph_times: [...into.graph_times, ...more.graph_times] };
}

/**
 * The chunks' timestamps as one list, as main joins them for the kept result (TimestampJoin): the
 * sandbox times each chunk from the utterance's start; a service timing each chunk from its own
 * start is recognised (a chunk beginning before the previous one ended) and offset by the audio
 * received before it.
 */
export class LiveTimestamps {
  private joined: AudioTimestamps | null = null;
  private audioBefore = 0;
  private relative: boolean | null = null;

  /** Adds one chunk (its timestamps and seconds of audio); the joined list so far (a new object when it grew). */
  add(stamps: AudioTimestamps | null, seconds: number): AudioTimestamps | null {
    if (stamps && stamps.graph_chars.length > 0) {
      const first = stamps.graph_times[0]?.[0] ?? 0;
      const lastEnd = this.joined?.graph_times.at(-1)?.[1] ?? 0;
      if (this.relative === null && this.joined) this.relative = first + 1e-3 < lastEnd;
      const offset = this.relative ? this.audioBefore : 0;
      const shifted = offset === 0 ? stamps : { graph_chars: stamps.graph_chars, graph_times: stamps.graph_times.map((t) => t.map((x) => x + offset)) };
      this.joined = appendTimestamps(this.joined, shifted);
    }
    this.audioBefore += seconds;
    return this.joined;
  }
}
