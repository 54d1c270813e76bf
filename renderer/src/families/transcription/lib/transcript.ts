/**
 * A speech-to-text result laid out for reading: one column per channel, each a list of segments
 * (an utterance: words with no pause over SEGMENT_GAP_S between them and one speaker), each word
 * with its times, confidence and speaker. Pure: the view and the exporters both read this.
 */
import type { SttResult, SttWord } from '@shared/wire/stt';

/** A pause longer than this (seconds) between two words starts a new segment. */
export const SEGMENT_GAP_S = 0.6;

export interface TranscriptSegment {
  start: number;
  end: number;
  speaker: number | null;
  words: SttWord[];
  text: string;
}

export interface TranscriptColumn {
  channel: number;
  text: string;
  segments: TranscriptSegment[];
}

export function segmentsOf(words: readonly SttWord[], text = ''): TranscriptSegment[] {
  const out: TranscriptSegment[] = [];
  for (const word of words) {
    const last = out[out.length - 1];
    const speaker = word.speaker ?? null;
    if (last && word.start - last.end <= SEGMENT_GAP_S && last.speaker === speaker) {
      last.words.push(word);
      last.end = Math.max(last.end, word.end);
      last.text += ` ${word.text}`;
    } else {
      out.push({ start: word.start, end: word.end, speaker, words: [word], text: word.text });
    }
  }
  // A result with text but no word timings is one segment over the whole audio.
  if (out.length === 0 && text.trim()) out.push({ start: 0, end: 0, speaker: null, words: [], text: text.trim() });
  return out;
}

/** The columns of a result: its `channels` when there are any, else the whole result as channel 0. */
export function columnsOf(result: SttResult): TranscriptColumn[] {
  if (result.channels && result.channels.length > 0) {
    return result.channels.map((c, i) => ({ channel: c.channel_index ?? c.channel ?? i, text: c.text ?? '', segments: segmentsOf(c.words ?? [], c.text ?? '') }));
  }
  return [{ channel: 0, text: result.text, segments: segmentsOf(result.words ?? [], result.text) }];
}

/** Speakers heard, in order of first word (for the legend and the colours). */
export function speakersOf(columns: readonly TranscriptColumn[]): number[] {
  const seen: number[] = [];
  for (const c of columns) for (const s of c.segments) if (s.speaker !== null && !seen.includes(s.speaker)) seen.push(s.speaker);
  return seen.sort((a, b) => a - b);
}

/** The word being spoken at `time` (seconds) in `segments`, as [segment, word] indexes, or null. */
export function wordAt(segments: readonly TranscriptSegment[], time: number): [number, number] | null {
  for (const [si, s] of segments.entries()) {
    if (time < s.start || time > s.end) continue;
    for (const [wi, w] of s.words.entries()) if (time >= w.start && time <= w.end) return [si, wi];
  }
  return null;
}
