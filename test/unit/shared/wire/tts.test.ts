import { describe, expect, it } from 'vitest';
import { codecOfContentType, parseTtsClientMessage, parseTtsServerMessage, ttsQueryProblem, ttsResultSchema } from '../../../../shared/wire/tts';
import { wsErrorCode, wsErrorText } from '../../../../shared/wire/ws-message';

describe('tts wire', () => {
  it('reads the JSON text-to-speech result with audio_timestamps (wire-notes §3.1)', () => {
    const body = {
      audio: 'SUQzBAAAAAAA',
      content_type: 'audio/mpeg',
      duration: 1.84,
      audio_timestamps: { graph_chars: ['H', 'e', 'l', 'l', 'o'], graph_times: [[0.0, 0.08], [0.08, 0.15], [0.15, 0.21], [0.21, 0.28], [0.28, 0.4]] },
      trace: 'extra field kept',
    };
    const parsed = ttsResultSchema.parse(body);
    expect(parsed.audio_timestamps?.graph_times[4]).toEqual([0.28, 0.4]);
    expect((parsed as Record<string, unknown>).trace).toBe('extra field kept');
    expect(ttsResultSchema.safeParse({ content_type: 'audio/mpeg' }).success).toBe(false);
  });

  it('parses server messages of every type, keeps unknown types, reports a wrong field', () => {
    const delta = parseTtsServerMessage({ type: 'audio.delta', delta: 'AAEC', audio_timestamps: { graph_chars: ['a'], graph_times: [[0, 0.1]] }, audio_duration: 0.48 });
    expect(delta).toMatchObject({ kind: 'message', message: { type: 'audio.delta', audio_duration: 0.48 } });
    expect(parseTtsServerMessage({ type: 'audio.done', trace_id: 'tr-1' })).toMatchObject({ kind: 'message', message: { trace_id: 'tr-1' } });
    const error = parseTtsServerMessage({ type: 'error', message: 'Unknown voice bob' });
    expect(error.kind).toBe('message');
    expect(parseTtsServerMessage({ type: 'audio.progress', percent: 50 })).toEqual({ kind: 'unknown', message: { type: 'audio.progress', percent: 50 } });
    expect(parseTtsServerMessage({ type: 'audio.delta', delta: 42 })).toEqual({ kind: 'invalid', issue: expect.stringMatching(/^audio\.delta: delta: /) });
    expect(parseTtsServerMessage('hello')).toEqual({ kind: 'invalid', issue: 'the message is not a JSON object' });
    expect(parseTtsServerMessage({ delta: 'x' })).toEqual({ kind: 'invalid', issue: 'the message has no "type"' });
    expect(parseTtsClientMessage({ type: 'text.delta', delta: 'Hello, ' }).kind).toBe('message');
    expect(parseTtsClientMessage({ type: 'text.done' }).kind).toBe('message');
  });

  it('reads error text from message, then error (string or object), and the code', () => {
    expect(wsErrorText({ message: 'bad text' })).toBe('bad text');
    expect(wsErrorText({ error: 'flat error' })).toBe('flat error');
    expect(wsErrorText({ error: { message: 'nested', code: 'invalid_value' } })).toBe('nested');
    expect(wsErrorText({})).toBeNull();
    expect(wsErrorCode({ error: { type: 'invalid_request_error' } })).toBe('invalid_request_error');
    expect(wsErrorCode({ code: 400 })).toBe('400');
  });

  it('maps Content-Types to codecs, with parameters and aliases', () => {
    expect(codecOfContentType('audio/mpeg')).toBe('mp3');
    expect(codecOfContentType('audio/wav; charset=binary')).toBe('wav');
    expect(codecOfContentType('audio/basic')).toBe('mulaw');
    expect(codecOfContentType('audio/alaw')).toBe('alaw');
    expect(codecOfContentType('audio/pcm')).toBe('pcm');
    expect(codecOfContentType('application/json')).toBeNull();
  });

  it('checks a query or request against the documented rules', () => {
    expect(ttsQueryProblem({ language: 'en', codec: 'mp3', sample_rate: 48000, bit_rate: 192000, speed: 1.5, optimize_streaming_latency: 1 })).toBeNull();
    expect(ttsQueryProblem({})).toBe('language is required (a BCP-47 code such as en, or auto).');
    expect(ttsQueryProblem({ language: 'en', codec: 'ogg' })).toBe('codec must be one of mp3, wav, pcm, mulaw, ulaw, alaw (got ogg).');
    expect(ttsQueryProblem({ language: 'en', codec: 'wav', bit_rate: 128000 })).toBe('bit_rate applies to mp3 only.');
    expect(ttsQueryProblem({ language: 'en', bit_rate: 100000 })).toMatch(/^bit_rate must be one of/);
    expect(ttsQueryProblem({ language: 'en', speed: 0.69 })).toBe('speed must be from 0.7 to 1.5 (got 0.69).');
    expect(ttsQueryProblem({ language: 'en', sample_rate: 32000 })).toMatch(/^sample_rate must be one of/);
  });
});
