import { describe, expect, it } from 'vitest';
import { insertInlineTag, wrapSelection } from '@/families/speech/lib/tags';
import { appendTimestamps, LiveTimestamps } from '@/families/speech/lib/spoken';
import { chunkPeaks } from '@/families/speech/lib/live-peaks';
import { defaultSpeechForm, speechFormFromSaved } from '@/families/speech/lib/speech-draft';
import { estimatedSpeechSeconds, formatWait, longRestNote, speechLengthSaid } from '@/families/speech/lib/long-text';
import { PREVIEW_SAMPLE_DEFAULT, PREVIEW_SAMPLE_MAX, previewSample } from '@/families/speech/lib/preview';
import { StreamPcm, livePlayable } from '@/families/speech/lib/stream-pcm';
import { encodeMulaw } from '@shared/audio/g711';

describe('speech tags', () => {
  it('puts an inline tag at the cursor with spaces where words touch, replacing a selection', () => {
    expect(insertInlineTag('ab', 1, 1, 'laugh')).toEqual({ text: 'a [laugh] b', selectionStart: 10, selectionEnd: 10 });
    expect(insertInlineTag('a b', 2, 2, 'sigh').text).toBe('a [sigh] b');
    expect(insertInlineTag('', 0, 0, 'pause').text).toBe('[pause]');
    expect(insertInlineTag('one two three', 4, 7, 'breath').text).toBe('one [breath] three');
  });

  it('wraps the selection (either direction) and keeps it selected; an empty selection gets an empty pair', () => {
    expect(wrapSelection('say this now', 9, 4, 'slow')).toEqual({ text: 'say <slow>this </slow>now', selectionStart: 10, selectionEnd: 15 });
    expect(wrapSelection('x', 1, 1, 'loud')).toEqual({ text: 'x<loud></loud>', selectionStart: 7, selectionEnd: 7 });
  });
});

describe('voice preview sample', () => {
  it('takes the first sentence, or a word-bounded start of a long one, or a stock line', () => {
    expect(previewSample('  Hi there.  And   more. ')).toBe('Hi there.');
    expect(previewSample('\n')).toBe(PREVIEW_SAMPLE_DEFAULT);
    expect(previewSample('no end at all')).toBe('no end at all');
    const long = previewSample('word '.repeat(100));
    expect(long.length).toBeLessThanOrEqual(PREVIEW_SAMPLE_MAX);
    expect(long.endsWith('word')).toBe(true);
  });
});

describe('spoken characters', () => {
  it('joins streamed timestamps', () => {
    expect(appendTimestamps(appendTimestamps(null, { graph_chars: ['a'], graph_times: [[0, 1]] }), { graph_chars: ['b'], graph_times: [[1, 2]] })).toEqual({ graph_chars: ['a', 'b'], graph_times: [[0, 1], [1, 2]] });
  });
});

describe('streamed PCM', () => {
  it('reads 16-bit little-endian across chunk edges and expands µ-law', () => {
    const p = new StreamPcm('pcm');
    expect([...p.push(Uint8Array.of(1, 0, 2))]).toEqual([1]);
    expect([...p.push(Uint8Array.of(0, 0xff, 0xff))]).toEqual([2, -1]);
    const samples = Int16Array.of(1000, -2000);
    const back = new StreamPcm('mulaw').push(encodeMulaw(samples));
    expect(back.length).toBe(2);
    expect(Math.abs(back[0]! - 1000)).toBeLessThan(64);
    expect(livePlayable('mp3')).toBe(false);
    expect(livePlayable('alaw')).toBe(true);
  });
});

describe('speech live timestamps, peaks and the kept form', () => {
  it('joins chunk timestamps timed from the utterance start as they are, and offsets ones timed per chunk', () => {
    const fromStart = new LiveTimestamps();
    fromStart.add({ graph_chars: ['a'], graph_times: [[0, 0.5]] }, 0.5);
    expect(fromStart.add({ graph_chars: ['b'], graph_times: [[0.5, 1]] }, 0.5)).toEqual({ graph_chars: ['a', 'b'], graph_times: [[0, 0.5], [0.5, 1]] });
    const perChunk = new LiveTimestamps();
    perChunk.add({ graph_chars: ['a'], graph_times: [[0, 0.4]] }, 0.5);
    perChunk.add(null, 0.25);
    expect(perChunk.add({ graph_chars: ['b'], graph_times: [[0, 0.3]] }, 0.5)).toEqual({ graph_chars: ['a', 'b'], graph_times: [[0, 0.4], [0.75, 1.05]] });
  });

  it('takes one peak per 20 ms of PCM16 at a fixed scale', () => {
    const samples = new Int16Array(1000);
    samples[10] = 16384;
    samples[500] = -32768;
    // 24 kHz: 480 samples a column; 1,000 samples make 3 columns (the last one short).
    expect(chunkPeaks(samples, 24_000)).toEqual([0.5, 1, 0]);
    expect(chunkPeaks(new Int16Array(0), 24_000)).toEqual([]);
  });

  it('reads a kept form field by field: what no longer fits falls back to the default', () => {
    expect(speechFormFromSaved(null)).toEqual(defaultSpeechForm());
    expect(speechFormFromSaved({ text: 'Hi', codec: 'flac', sampleRate: 11025, speed: 3, mode: 'carrier-pigeon', language: 'xx', voice: '   ', compare: 'yes', bitRate: 64000 })).toEqual({ ...defaultSpeechForm(), text: 'Hi', bitRate: 64000 });
    expect(speechFormFromSaved({ codec: 'alaw', sampleRate: 8000, speed: 0.7, mode: 'stream', language: 'ja', voice: 'leo', compare: true, voiceB: 'sal' })).toEqual({ ...defaultSpeechForm(), codec: 'alaw', sampleRate: 8000, speed: 0.7, mode: 'stream', language: 'ja', voice: 'leo', compare: true, voiceB: 'sal' });
  });
});

describe('speech long text', () => {
  it('estimates the speech and says REST waits for all of it; nothing for streaming or a short text', () => {
    expect(Math.round(estimatedSpeechSeconds(60_000))).toBe(3300);
    expect(speechLengthSaid(estimatedSpeechSeconds(60_000))).toBe('about 55 minutes');
    expect(speechLengthSaid(estimatedSpeechSeconds(60_000, 0.7))).toBe('about 79 minutes');
    expect(speechLengthSaid(6_000)).toBe('about 1.7 hours');
    expect(speechLengthSaid(40)).toBe('about 40 seconds');
    expect(formatWait(65)).toBe('1:05');
    expect(formatWait(3725)).toBe('1:02:05');
    expect(longRestNote(60_000, 1, 'rest', 'mp3')).toMatch(/^This is about 55 minutes of speech\..* MP3 is the slowest to make\./);
    expect(longRestNote(60_000, 1, 'rest', 'pcm')).not.toMatch(/MP3/);
    expect(longRestNote(60_000, 1, 'stream', 'mp3')).toBeNull();
    expect(longRestNote(1_000, 1, 'rest', 'mp3')).toBeNull();
  });
});
