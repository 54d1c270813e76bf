import { describe, expect, it } from 'vitest';
import { parseSttClientMessage, parseSttServerMessage, sttChannelOf, sttPartialState, sttResultSchema, sttStreamQueryProblem, type SttPartial } from '../../../../shared/wire/stt';

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

  it('checks a streaming query against the spec table', () => {
    expect(sttStreamQueryProblem({ sample_rate: 16000, encoding: 'pcm', endpointing: 0, smart_turn: 0.5, smart_turn_timeout: 5000, vad_threshold: 0, multichannel: true, channels: 8 })).toBeNull();
    expect(sttStreamQueryProblem({ sample_rate: 11025 })).toBe('sample_rate must be one of 8000, 16000, 22050, 24000, 44100, 48000 (got 11025).');
    expect(sttStreamQueryProblem({ endpointing: 5001 })).toBe('endpointing must be a whole number from 0 to 5000 (got 5001).');
    expect(sttStreamQueryProblem({ smart_turn: 1.2 })).toBe('smart_turn must be from 0 to 1 (got 1.2).');
    expect(sttStreamQueryProblem({ smart_turn_timeout: 100 })).toBe('smart_turn_timeout needs smart_turn.');
    expect(sttStreamQueryProblem({ multichannel: true })).toBe('multichannel needs channels (2 to 8).');
    expect(sttStreamQueryProblem({ multichannel: true, channels: 1 })).toBe('channels must be a whole number from 2 to 8 (got 1).');
    expect(sttStreamQueryProblem({ multichannel: true, channels: 2, encoding: 'opus' })).toMatch(/not available with opus/);
    expect(sttStreamQueryProblem({ model: 'svc-voice-transcribe-3.0' })).toMatch(/^model must be one of/);
    expect(sttStreamQueryProblem({ keyterm: ['a'.repeat(51)] })).toMatch(/at most 50 characters/);
  });
});
