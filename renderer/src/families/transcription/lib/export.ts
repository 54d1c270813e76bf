/**
 * A transcript exported as plain text, SubRip (SRT), WebVTT and JSON. Cues are the segments of
 * transcript.ts, in time order across channels; a cue names its speaker (with diarisation) and
 * its channel (with several). Times: SRT `HH:MM:SS,mmm`, WebVTT `HH:MM:SS.mmm` (hours always
 * written, so a player never has to guess).
 */
import type { SttResult } from '@shared/wire/stt';
import { columnsOf, type TranscriptSegment } from './transcript';

export type ExportFormat = 'txt' | 'srt' | 'vtt' | 'json';

export const EXPORT_FORMATS: ReadonlyArray<{ id: ExportFormat; label: string; mime: string }> = [
  { id: 'txt', label: 'Text', mime: 'text/plain' },
  { id: 'srt', label: 'SRT', mime: 'application/x-subrip' },
  { id: 'vtt', label: 'WebVTT', mime: 'text/vtt' },
  { id: 'json', label: 'JSON', mime: 'application/json' },
];

/** `seconds` as HH:MM:SS<sep>mmm (rounded to the millisecond, never negative). */
export function timestamp(seconds: number, sep: ',' | '.'): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}${sep}${pad(ms % 1000, 3)}`;
}

interface Cue extends TranscriptSegment {
  channel: number;
}

function cuesOf(result: SttResult): { cues: Cue[]; channels: number } {
  const columns = columnsOf(result);
  const cues = columns.flatMap((c) => c.segments.map((s) => ({ ...s, channel: c.channel }))).sort((a, b) => a.start - b.start || a.channel - b.channel);
  return { cues, channels: columns.length };
}

function label(cue: Cue, channels: number): string {
  const parts = [channels > 1 ? `Channel ${cue.channel + 1}` : null, cue.speaker !== null ? `Speaker ${cue.speaker + 1}` : null].filter(Boolean);
  return parts.length ? `${parts.join(' · ')}: ` : '';
}

export function toText(result: SttResult): string {
  const { cues, channels } = cuesOf(result);
  if (cues.length === 0) return `${result.text.trim()}\n`;
  return `${cues.map((c) => `${label(c, channels)}${c.text}`).join('\n')}\n`;
}

export function toSrt(result: SttResult): string {
  const { cues, channels } = cuesOf(result);
  return cues.map((c, i) => `${i + 1}\n${timestamp(c.start, ',')} --> ${timestamp(c.end, ',')}\n${label(c, channels)}${c.text}\n`).join('\n');
}

export function toVtt(result: SttResult): string {
  const { cues, channels } = cuesOf(result);
  // In WebVTT a speaker is a voice span; `-->` may not appear in a cue's text.
  const body = cues.map((c) => {
    const who = c.speaker !== null ? `<v Speaker ${c.speaker + 1}>` : '';
    const where = channels > 1 ? `[Channel ${c.channel + 1}] ` : '';
    return `${timestamp(c.start, '.')} --> ${timestamp(c.end, '.')}\n${who}${where}${c.text.replace(/-->/g, '->')}\n`;
  });
  return ['WEBVTT\n', ...body].join('\n');
}

export function toJson(result: SttResult): string {
  return `${JSON.stringify(result, null, 2)}\n`;
}

export function exportTranscript(result: SttResult, format: ExportFormat): string {
  return format === 'txt' ? toText(result) : format === 'srt' ? toSrt(result) : format === 'vtt' ? toVtt(result) : toJson(result);
}
