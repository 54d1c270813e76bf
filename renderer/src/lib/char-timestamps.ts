/**
 * Per-character timings of synthesised speech (the TTS result's `audio_timestamps`: `graph_chars`
 * and `graph_times` as `[start, end]` seconds, wire-notes §3), read for a player that lights the
 * characters as they are spoken. Pure: the waveform player and the Speech playground share it.
 */

/** What `audio_timestamps` holds. A streamed speech's chunks are joined with `joinCharTimestamps`. */
export interface CharTimestamps {
  graph_chars: string[];
  /** `[start, end]` in seconds per character; a bare number is read as its start. */
  graph_times: Array<[number, number] | readonly number[] | number>;
}

/** One character on the time line: [start, end) in seconds. */
export interface TimedChar {
  char: string;
  start: number;
  end: number;
}

/**
 * The characters with their spans, in order. A pair missing or malformed takes the previous end
 * (so a short `graph_times` still lines up what it has); an end before its start is clamped.
 */
export function timedChars(stamps: CharTimestamps | null | undefined): TimedChar[] {
  if (!stamps || !Array.isArray(stamps.graph_chars)) return [];
  const times = Array.isArray(stamps.graph_times) ? stamps.graph_times : [];
  const out: TimedChar[] = [];
  let previousEnd = 0;
  stamps.graph_chars.forEach((char, i) => {
    const t = times[i];
    const rawStart = typeof t === 'number' ? t : Array.isArray(t) && typeof t[0] === 'number' ? t[0] : previousEnd;
    const start = Number.isFinite(rawStart) ? Math.max(rawStart, 0) : previousEnd;
    const next = times[i + 1];
    const nextStart = typeof next === 'number' ? next : Array.isArray(next) && typeof next[0] === 'number' ? next[0] : start;
    const rawEnd = Array.isArray(t) && typeof t[1] === 'number' ? t[1] : nextStart;
    const end = Math.max(start, Number.isFinite(rawEnd) ? rawEnd : start);
    out.push({ char: String(char), start, end });
    previousEnd = end;
  });
  return out;
}

/**
 * How many characters have started by `time` (seconds): characters `[0, n)` are lit. Binary
 * search on the starts, which the service gives in order (a late one cannot unlight earlier ones).
 */
export function litCount(chars: readonly TimedChar[], time: number): number {
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (chars[mid]!.start <= time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The timestamps of a streamed speech's chunks as one: each chunk's times are relative to the
 * chunk, so they are shifted by the audio that came before (`audio_duration` of each chunk).
 */
export function joinCharTimestamps(chunks: ReadonlyArray<{ stamps: CharTimestamps; offsetSeconds: number }>): CharTimestamps {
  const out: CharTimestamps = { graph_chars: [], graph_times: [] };
  for (const { stamps, offsetSeconds } of chunks) {
    for (const c of timedChars(stamps)) {
      out.graph_chars.push(c.char);
      out.graph_times.push([c.start + offsetSeconds, c.end + offsetSeconds]);
    }
  }
  return out;
}

/** `m:ss.t` for a player's clock (tenths: speech moves fast). */
export function formatPlayerTime(seconds: number): string {
  const s = Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
  const tenths = Math.floor(s * 10);
  const m = Math.floor(tenths / 600);
  const rest = tenths - m * 600;
  return `${m}:${String(Math.floor(rest / 10)).padStart(2, '0')}.${rest % 10}`;
}
