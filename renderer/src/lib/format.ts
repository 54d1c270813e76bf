/** Display formatting for times, durations and token counts (money is in shared/pricing.ts). */

/** `1.2 s`, `850 ms`, or an em dash when unknown. */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** `m:ss` for a length in milliseconds (a recording, a session). */
export function formatClock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** Local date and time of a run, short enough for a table row. */
export function formatTime(epochMs: number): string {
  return (rowTimeFormat ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'medium' })).format(new Date(epochMs));
}
let rowTimeFormat: Intl.DateTimeFormat | null = null;

/**
 * A list's short time: the time alone for today, else the day and the time (`Nov 24, 7:46 AM`),
 * so a narrow column shows all of it; the full date and seconds go in a title (formatTime).
 */
export function formatShortTime(epochMs: number, now: number = Date.now()): string {
  const d = new Date(epochMs);
  const n = new Date(now);
  const today = d.getFullYear() === n.getFullYear() && d.getMonth() === n.getMonth() && d.getDate() === n.getDate();
  return (today ? timeOfDay() : dayAndTime()).format(d);
}

// toLocaleString(…, options) builds a new Intl.DateTimeFormat on every call (a third of a
// millisecond): lists that render a date per row (the Gallery's scrolling grid, History) reuse these.
let timeOfDayFormat: Intl.DateTimeFormat | null = null;
let dayAndTimeFormat: Intl.DateTimeFormat | null = null;
const timeOfDay = (): Intl.DateTimeFormat => (timeOfDayFormat ??= new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }));
const dayAndTime = (): Intl.DateTimeFormat =>
  (dayAndTimeFormat ??= new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }));

/** `128,000` style integer, or an em dash. */
export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined) return '—';
  return n.toLocaleString('en-US');
}

/** Pretty JSON for display; strings that hold JSON are parsed first so arguments read well. */
export function prettyJson(value: unknown): string {
  if (typeof value === 'string') {
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      return value;
    }
  }
  return JSON.stringify(value, null, 2) ?? String(value);
}

/** `text` as one sentence: a final period added unless it already ends with one (or ! ?), so "(bad port)." never gets a second. */
export function sentence(text: string): string {
  const t = text.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}
