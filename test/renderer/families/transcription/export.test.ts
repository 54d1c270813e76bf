/** The transcript exporters: exact SRT / WebVTT timing, cues by segment, speakers and channels named. */
import { describe, expect, it } from 'vitest';
import type { SttResult } from '../../../../shared/wire/stt';
import { exportTranscript, timestamp, toJson, toSrt, toText, toVtt } from '../../../../renderer/src/families/transcription/lib/export';
import { columnsOf, segmentsOf, speakersOf, wordAt } from '../../../../renderer/src/families/transcription/lib/transcript';

const w = (text: string, start: number, end: number, speaker?: number, confidence = 0.9) => ({ text, start, end, speaker, confidence });

const diarized: SttResult = {
  text: 'hello there general kenobi',
  duration: 3725.5,
  words: [w('hello', 0.5, 0.9, 0), w('there', 1.0, 1.4, 0), w('general', 2.5, 3.0, 1), w('kenobi', 3.05, 3.6, 1)],
};

describe('timestamp', () => {
  it('writes HH:MM:SS,mmm and HH:MM:SS.mmm, rounding to the millisecond', () => {
    expect(timestamp(0, ',')).toBe('00:00:00,000');
    expect(timestamp(3725.5, ',')).toBe('01:02:05,500');
    expect(timestamp(59.9996, '.')).toBe('00:01:00.000');
    expect(timestamp(1.0015, '.')).toBe('00:00:01.002');
    expect(timestamp(-1, '.')).toBe('00:00:00.000');
  });
});

describe('segments', () => {
  it('splits at a speaker change and at a pause over 0.6 s', () => {
    const segs = segmentsOf([w('a', 0, 0.2, 0), w('b', 0.5, 0.7, 0), w('c', 1.4, 1.6, 0), w('d', 1.7, 1.9, 1)]);
    expect(segs.map((s) => [s.text, s.start, s.end, s.speaker])).toEqual([
      ['a b', 0, 0.7, 0],
      ['c', 1.4, 1.6, 0],
      ['d', 1.7, 1.9, 1],
    ]);
    expect(speakersOf(columnsOf({ text: '', words: [w('x', 0, 1, 2), w('y', 3, 4, 0)] }))).toEqual([0, 2]);
    expect(wordAt(segs, 0.6)).toEqual([0, 1]);
    expect(wordAt(segs, 0.3)).toBeNull();
  });
  it('keeps text without word timings as one segment', () => {
    expect(columnsOf({ text: ' just text ' })[0]!.segments).toEqual([{ start: 0, end: 0, speaker: null, words: [], text: 'just text' }]);
  });
});

describe('exports', () => {
  it('SRT: numbered cues, comma milliseconds, speakers named', () => {
    expect(toSrt(diarized)).toBe('1\n00:00:00,500 --> 00:00:01,400\nSpeaker 1: hello there\n\n2\n00:00:02,500 --> 00:00:03,600\nSpeaker 2: general kenobi\n');
  });
  it('WebVTT: the header, dot milliseconds, voice spans', () => {
    expect(toVtt(diarized)).toBe('WEBVTT\n\n00:00:00.500 --> 00:00:01.400\n<v Speaker 1>hello there\n\n00:00:02.500 --> 00:00:03.600\n<v Speaker 2>general kenobi\n');
  });
  it('text and JSON', () => {
    expect(toText(diarized)).toBe('Speaker 1: hello there\nSpeaker 2: general kenobi\n');
    expect(JSON.parse(toJson(diarized))).toEqual(diarized);
    expect(exportTranscript(diarized, 'srt')).toBe(toSrt(diarized));
  });
  it('several channels: cues in time order across them, each naming its channel', () => {
    const stereo: SttResult = {
      text: 'left right',
      channels: [
        { channel_index: 0, text: 'left', words: [w('left', 1, 1.5)] },
        { channel_index: 1, text: 'right', words: [w('right', 0.2, 0.6)] },
      ],
    };
    expect(toText(stereo)).toBe('Channel 2: right\nChannel 1: left\n');
    expect(toVtt(stereo)).toContain('00:00:00.200 --> 00:00:00.600\n[Channel 2] right\n');
    expect(columnsOf(stereo).map((c) => c.channel)).toEqual([0, 1]);
  });
  it('a cue never carries the WebVTT arrow', () => {
    expect(toVtt({ text: 'a --> b', words: [w('a-->b', 0, 1)] })).toContain('\na->b\n');
  });
});
