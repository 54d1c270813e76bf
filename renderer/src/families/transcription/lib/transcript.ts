/**
 * A speech-to-text result laid out for reading: one column per channel, each a list of segments
 * (an utterance: words with no pause over SEGMENT_GAP_S between them and one speaker), each word
 * with its times, confidence and speaker. Pure: the view and the exporters both read this.
 */
import type { SttResult, SttWord } from '@shared/wire/stt';
import type { LiveTranscriptOutput } from '@shared/live-transcription';

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

/** Reads a run's output as a live session's transcript, or null when it is something else. */
export function liveTranscriptOf(output: unknown): LiveTranscriptOutput | null {
  if (!output || typeof output !== 'object') return null;
  const o = output as Partial<LiveTranscriptOutput>;
  return o.object === 'live_transcript' && Array.isArray(o.channels) ? (o as LiveTranscriptOutput) : null;
}

/**
 * A live session's transcript as columns: its final chunks joined into the utterances the service
 * closed (`utterance`), each starting where its first chunk does. The speaker is the utterance's first one heard.
 */
export function liveColumnsOf(output: LiveTranscriptOutput): TranscriptColumn[] {
  return output.channels.map(({ channel, segments }) => {
    const out: TranscriptSegment[] = [];
    let open: TranscriptSegment | null = null;
    for (const chunk of segments) {
      const text = chunk.text.trim();
      const words: SttWord[] = chunk.words.map((w) => ({ text: w.text, start: w.start, end: w.end, ...(w.confidence === null ? {} : { confidence: w.confidence }), ...(w.speaker === null ? {} : { speaker: w.speaker }) }));
      const start: number = chunk.start ?? words[0]?.start ?? open?.end ?? 0;
      const end = words.at(-1)?.end ?? (chunk.start !== null && chunk.duration !== null ? chunk.start + chunk.duration : start);
      if (text || words.length) {
        if (!open) out.push((open = { start, end, speaker: chunk.speaker ?? words[0]?.speaker ?? null, words: [], text: '' }));
        open.words.push(...words);
        open.text = open.text ? `${open.text} ${text}` : text;
        open.end = Math.max(open.end, end);
      }
      if (chunk.utterance) open = null;
    }
    return { channel, text: out.map((s) => s.text).join('\n'), segments: out };
  });
}
