/**
 * How History reads a live session's timeline rows and state (pure): one line per event or mark
 * (which way it went, when, its type, a short summary: audio frames summarised, never dumped),
 * the JSON of one row on demand, and the session's state said plainly.
 */
import type { SessionRecord, TimelineItem } from '@shared/contract/history';
import type { CapturedEvent } from '@shared/contract/runs';
import { formatClock } from './format';

export { formatClock };

export interface TimelineRow {
  /** '→' to the service, '←' from it, '◆' a mark of the session. */
  arrow: '→' | '←' | '◆';
  direction: 'out' | 'in' | 'mark';
  /** Milliseconds on the session clock. */
  t: number;
  /** The message's `type` (or `event:` name, or kind), or the mark's type. */
  type: string;
  summary: string;
}

/** Longest data read to find a message's `type` (a row shows a few words; JSON on demand). */
const TYPE_SCAN_CHARS = 4_096;
const SUMMARY_CHARS = 160;

function messageType(event: CapturedEvent): string {
  if (event.event) return event.event;
  if (event.kind === 'audio') return 'audio';
  if (event.kind === 'binary') return 'binary';
  // Only the head is looked at: the type field leads the service's messages, and a row must not
  // parse a large message to be drawn.
  const m = /"type"\s*:\s*"([^"\\]{1,80})"/.exec(event.data.slice(0, TYPE_SCAN_CHARS));
  return m ? m[1]! : event.kind === 'text' ? 'text' : 'message';
}

function audioSummary(event: CapturedEvent): string {
  const a = event.audio!;
  return `audio ${Math.round(a.durationMs)} ms, ${a.bytes.toLocaleString('en-US')} B at ${Math.round(a.offsetMs)} ms of its track`;
}

function clip(text: string): string {
  const flat = text.length > SUMMARY_CHARS * 2 ? text.slice(0, SUMMARY_CHARS * 2) : text;
  const one = flat.replace(/\s+/g, ' ');
  return one.length > SUMMARY_CHARS ? `${one.slice(0, SUMMARY_CHARS - 1)}…` : one;
}

export function timelineRow(item: TimelineItem): TimelineRow {
  if ('mark' in item) {
    const data = item.mark.data ? ` ${clip(JSON.stringify(item.mark.data))}` : '';
    return { arrow: '◆', direction: 'mark', t: item.mark.t, type: item.mark.type, summary: `${item.mark.turn != null ? `turn ${item.mark.turn}` : ''}${data}`.trim() };
  }
  const e = item.event;
  const direction = e.direction === 'out' ? 'out' : 'in';
  const type = messageType(e);
  let summary: string;
  if (e.audio) summary = audioSummary(e);
  else if (e.kind === 'binary') summary = `binary, ${Math.floor((e.data.length * 3) / 4).toLocaleString('en-US')} B`;
  else summary = clip(e.data);
  return { arrow: direction === 'out' ? '→' : '←', direction, t: e.t, type, summary };
}

/** The row's whole content as indented JSON (an event's data parsed when it is JSON). */
export function timelineJson(item: TimelineItem): string {
  if ('mark' in item) return JSON.stringify(item.mark, null, 2);
  const { data, ...rest } = item.event;
  let parsed: unknown = data;
  if (item.event.kind !== 'binary') {
    try {
      parsed = JSON.parse(data);
    } catch {
      parsed = data;
    }
  } else parsed = `(${Math.floor((data.length * 3) / 4)} bytes, base64)`;
  return JSON.stringify({ ...rest, data: parsed }, null, 2);
}

/** `12.345 s` on the session clock (rows sort by it; ms precision matters for latency). */
export function formatSessionTime(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(3)} s`;
}

/** How far the recording goes: the end of the track that ends last. */
export function keptUpToMs(session: Pick<SessionRecord, 'tracks'>): number {
  return Math.max(0, ...session.tracks.map((t) => t.startMs + (t.durationMs ?? 0)));
}

/** The session's state in a sentence, with severity (a crash is a warning: what was written is kept). */
export function sessionStateText(session: SessionRecord): { text: string; severity: 'info' | 'warn' | 'error' } {
  const kept = formatClock(keptUpToMs(session));
  switch (session.state) {
    case 'recording':
      return { text: 'Still recording: this session is live.', severity: 'info' };
    case 'crashed':
      return {
        text: session.endReason ?? `The session ended abnormally (the app stopped during it); the recording is kept up to ${kept}.`,
        severity: 'warn',
      };
    case 'aborted':
      return { text: `The session ended with an error${session.endReason ? `: ${session.endReason}` : ''}; the recording is kept up to ${kept}.`, severity: 'error' };
    default:
      return { text: `Ended${session.endReason ? ` (${session.endReason})` : ''} after ${kept}.`, severity: 'info' };
  }
}
