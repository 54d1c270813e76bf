/**
 * Which character is being spoken at a time, from `audio_timestamps` (`graph_times[i]` is the
 * [start, end] seconds of `graph_chars[i]`). Pure, so the highlight is tested without audio.
 */
import type { AudioTimestamps } from '@shared/wire/tts';

/**
 * How many characters have started by `seconds` (binary search on the start times, which rise):
 * characters `0 … n-1` are lit; the last of them is the one being spoken while `seconds` is
 * before its end.
 */
export function spokenCount(ts: AudioTimestamps | null, seconds: number): number {
  if (!ts) return 0;
  const times = ts.graph_times;
  let lo = 0;
  let hi = Math.min(times.length, ts.graph_chars.length);
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((times[mid]?.[0] ?? Infinity) <= seconds) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The index of the character being spoken at `seconds`, or -1 between characters and outside. */
export function currentChar(ts: AudioTimestamps | null, seconds: number): number {
  const n = spokenCount(ts, seconds);
  if (n === 0 || !ts) return -1;
  const end = ts.graph_times[n - 1]?.[1] ?? 0;
  return seconds < end ? n - 1 : -1;
}

/** Joins chunks' timestamps as they stream in (times are from the utterance start, as the service sends them). */
export function appendTimestamps(into: AudioTimestamps | null, more: AudioTimestamps | null): AudioTimestamps | null {
  if (!more || more.graph_chars.length === 0) return into;
  if (!into) return { graph_chars: [...more.graph_chars], graph_times: [...more.graph_times] };
  return { graph_chars: [...into.graph_chars, ...more.graph_chars], graph_times: [...into.graph_times, ...more.graph_times] };
}
