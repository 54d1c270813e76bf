import { describe, expect, it } from 'vitest';
import { parseSttClientMessage, parseSttServerMessage, sttChannelOf, sttPartialState, sttResultSchema, type SttPartial } from '../../../../shared/wire/stt';

describe('stt wire', () => {
  it('reads the REST result of wire-notes §4.1, with diarised words and channels', () => {
    const body = {
      text: 'Galileo was an American robotic',
      language: 'en',
      duration: 2.04,
      words: [
        { text: 'Galileo', start: 0.162, end: 0.667, speaker: 0 },
        { text: 'was', start: 0.788, end: 0.909, speaker: 0, confidence: 0.93 },
      ],
      channels: [{ channel_index: 1, text: 'hi', words: [], duration: 2.04 }],
    };
    const parsed = sttResultSchema.parse(body);
    expect(parsed.words?.[1]).toEqual({ text: 'was', start: 0.788, end: 0.909, speaker: 0, confidence: 0.93 });
    expect(sttChannelOf(parsed.channels![0]!)).toBe(1);
    expect(sttResultSchema.safeParse({ text: 'x', words: [{ text: 'a', start: '0' }] }).success).toBe(false);
  });

  it('parses the streaming sequence of §4.2 and tells the partial states apart', () => {
    const seq = [
      { type: 'transcript.created' },
      { type: 'transcript.partial', text: 'hello wor', words: [{ text: 'hello', start: 0.12, end: 0.4, confidence: 0.97 }], is_final: false, speech_final: false, start: 0.0, duration: 0.9 },
      { type: 'transcript.partial', text: 'hello world', words: [], is_final: true, speech_final: false, start: 0.0, duration: 1.3, channel: 1 },
      { type: 'transcript.partial', text: 'hello world', words: [], is_final: true, speech_final: true, start: 0.0, duration: 1.3, end_of_turn_confidence: 0.92, channel_index: 0 },
      { type: 'transcript.done', text: '', words: [], duration: 12.34, channel_index: 0 },
      { type: 'error', message: 'invalid audio frame' },
    ];
    const parsed = seq.map((m) => parseSttServerMessage(m));
    expect(parsed.map((p) => p.kind)).toEqual(['message', 'message', 'message', 'message', 'message', 'message']);
    const partials = parsed.slice(1, 4).map((p) => (p.kind === 'message' ? (p.message as SttPartial) : null)!);
    expect(partials.map(sttPartialState)).toEqual(['interim', 'chunk_final', 'utterance_final']);
    expect(partials.map(sttChannelOf)).toEqual([0, 1, 0]);
    expect(parseSttServerMessage({ type: 'transcript.done', text: '' })).toMatchObject({ kind: 'invalid', issue: expect.stringContaining('duration') });
    expect(parseSttServerMessage({ type: 'transcript.partial', text: 'x', is_final: 'yes' }).kind).toBe('invalid');
  });

  it('accepts finalize in both spellings with an optional channel', () => {
    expect(parseSttClientMessage({ type: 'Finalize' }).kind).toBe('message');
    expect(parseSttClientMessage({ type: 'finalize', channel: 1 }).kind).toBe('message');
    expect(parseSttClientMessage({ type: 'finalize', channel: -1 }).kind).toBe('invalid');
    expect(parseSttClientMessage({ type: 'audio.done' }).kind).toBe('message');
  });
});
