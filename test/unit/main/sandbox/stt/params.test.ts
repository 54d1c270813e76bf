/** Every query-parameter and form-field rule of transcription, with the message a person reads. */
import { describe, expect, it } from 'vitest';
import { parseFormFields, parseStreamParams, SttParamError } from '../../../../../main/sandbox/stt/params';

function streamProblems(query: string): string[] {
  try {
    parseStreamParams(new URLSearchParams(query));
    return [];
  } catch (err) {
    if (!(err instanceof SttParamError)) throw err;
    return err.problems;
  }
}

function formProblems(fields: Array<[string, string]>, hasFile = true): string[] {
  try {
    parseFormFields(fields, hasFile);
    return [];
  } catch (err) {
    if (!(err instanceof SttParamError)) throw err;
    return err.problems;
  }
}

describe('WebSocket query parameters', () => {
  it('has the spec defaults', () => {
    expect(parseStreamParams(new URLSearchParams(''))).toEqual({
      sampleRate: 16000,
      encoding: 'pcm',
      interimResults: false,
      endpointingMs: 400,
      language: null,
      model: 'svc-voice-transcribe-2.0',
      multichannel: false,
      channels: 1,
      diarize: false,
      smartTurn: null,
      smartTurnTimeoutMs: null,
      vadThreshold: 0.08,
      style: { fillerWords: false, keyterms: [], itn: false },
    });
  });

  it('takes every parameter at its limits', () => {
    const o = parseStreamParams(
      new URLSearchParams(
        'sample_rate=48000&encoding=alaw&interim_results=true&endpointing=5000&language=pt-BR&model=svc-voice-transcribe-1.0&multichannel=true&channels=8&diarize=true&filler_words=true&smart_turn=1&smart_turn_timeout=5000&vad_threshold=0&keyterm=a&keyterm=Workbench',
      ),
    );
    expect(o).toMatchObject({ sampleRate: 48000, encoding: 'alaw', interimResults: true, endpointingMs: 5000, language: 'pt-BR', model: 'svc-voice-transcribe-1.0', multichannel: true, channels: 8, diarize: true, smartTurn: 1, smartTurnTimeoutMs: 5000, vadThreshold: 0 });
    expect(o.style).toEqual({ fillerWords: true, keyterms: ['a', 'Workbench'], itn: true });
    expect(parseStreamParams(new URLSearchParams('endpointing=0&smart_turn=0&smart_turn_timeout=1&vad_threshold=1'))).toMatchObject({ endpointingMs: 0, smartTurn: 0, smartTurnTimeoutMs: 1, vadThreshold: 1 });
    // Opus ignores sample_rate (even a wrong one) and is decoded at 16 kHz.
    expect(parseStreamParams(new URLSearchParams('encoding=opus&sample_rate=11025')).sampleRate).toBe(16000);
  });

  it.each([
    ['sample_rate=11025', 'sample_rate must be one of 8000, 16000, 22050, 24000, 44100, 48000, not "11025".'],
    ['sample_rate=16k', 'sample_rate must be one of 8000, 16000, 22050, 24000, 44100, 48000, not "16k".'],
    ['encoding=flac', 'encoding must be one of pcm, mulaw, alaw, opus, not "flac".'],
    ['interim_results=yes', 'interim_results must be "true" or "false", not "yes".'],
    ['endpointing=5001', 'endpointing must be an integer from 0 to 5000, not "5001".'],
    ['endpointing=-1', 'endpointing must be an integer from 0 to 5000, not "-1".'],
    ['endpointing=1.5', 'endpointing must be an integer from 0 to 5000, not "1.5".'],
    ['language=english!', 'language must be a BCP-47 language tag such as en or pt-BR, not "english!".'],
    ['model=whisper', 'model must be one of svc-voice-transcribe-1.0, svc-voice-transcribe-2.0, not "whisper".'],
    ['multichannel=true', 'multichannel=true needs channels from 2 to 8 (how many channels are interleaved in each frame).'],
    ['multichannel=true&channels=1', 'multichannel=true needs channels from 2 to 8 (how many channels are interleaved in each frame).'],
    ['channels=9', 'channels must be an integer from 2 to 8 (1, the default, for mono), not "9".'],
    ['channels=0', 'channels must be an integer from 2 to 8 (1, the default, for mono), not "0".'],
    ['encoding=opus&multichannel=true&channels=2', 'encoding=opus is mono only: leave out multichannel and channels, or send pcm, mulaw or alaw.'],
    ['diarize=1', 'diarize must be "true" or "false", not "1".'],
    ['filler_words=TRUE', 'filler_words must be "true" or "false", not "TRUE".'],
    ['smart_turn=1.5', 'smart_turn must be a number from 0.0 to 1.0, not "1.5".'],
    ['smart_turn=high', 'smart_turn must be a number from 0.0 to 1.0, not "high".'],
    ['smart_turn=0.5&smart_turn_timeout=0', 'smart_turn_timeout must be an integer from 1 to 5000, not "0".'],
    ['smart_turn=0.5&smart_turn_timeout=5001', 'smart_turn_timeout must be an integer from 1 to 5000, not "5001".'],
    ['smart_turn_timeout=100', 'smart_turn_timeout only applies with smart_turn: set smart_turn (0.0 to 1.0) too.'],
    ['vad_threshold=-0.1', 'vad_threshold must be a number from 0.0 to 1.0, not "-0.1".'],
    ['keyterm=' + 'x'.repeat(51), 'keyterm 1 must be 1 to 50 characters (it has 51).'],
    ['keyterm=ok&keyterm=', 'keyterm 2 must be 1 to 50 characters (it has 0).'],
    ['endpointing=1&endpointing=2', 'query parameter endpointing is given more than once; give it once.'],
    ['punctuate=true', 'Unknown query parameter "punctuate"; the query parameters are sample_rate, encoding, interim_results, endpointing, language, model, multichannel, channels, diarize, keyterm, filler_words, smart_turn, smart_turn_timeout, vad_threshold.'],
  ])('%s', (query, message) => {
    expect(streamProblems(query)).toEqual([message]);
  });

  it('allows 100 key terms, not 101, and lists several problems at once', () => {
    const terms = (n: number) => Array.from({ length: n }, (_, i) => `keyterm=t${i}`).join('&');
    expect(streamProblems(terms(100))).toEqual([]);
    expect(streamProblems(terms(101))).toEqual(['keyterm is given 101 times; at most 100 terms are allowed.']);
    expect(streamProblems('encoding=x&endpointing=x')).toHaveLength(2);
  });
});

describe('REST form fields', () => {
  it('reads a file form and a raw-audio form', () => {
    expect(parseFormFields([['language', 'en'], ['format', 'true'], ['diarize', 'true'], ['keyterm', 'Galileo']], true)).toEqual({
      url: null,
      audioFormat: null,
      sampleRate: null,
      language: 'en',
      multichannel: false,
      channels: null,
      diarize: true,
      style: { fillerWords: false, keyterms: ['Galileo'], itn: true },
    });
    expect(parseFormFields([['audio_format', 'mulaw'], ['sample_rate_hertz', '8000'], ['multichannel', 'true'], ['channels', '2']], true)).toMatchObject({ audioFormat: 'mulaw', sampleRate: 8000, multichannel: true, channels: 2 });
    expect(parseFormFields([['url', 'http://127.0.0.1/a.wav']], false).url).toBe('http://127.0.0.1/a.wav');
  });

  it.each<[Array<[string, string]>, boolean, string]>([
    [[], false, 'Send the audio as a file part (the last part of the form) or give its url.'],
    [[['url', 'http://x/a.wav']], true, 'Send either file or url, not both.'],
    [[['audio_format', 'opus'], ['sample_rate', '16000']], true, 'audio_format must be one of pcm, mulaw, alaw, not "opus".'],
    [[['audio_format', 'pcm']], true, 'audio_format=pcm is raw audio with no header: give its sample_rate (8000, 16000, 22050, 24000, 44100, 48000).'],
    [[['audio_format', 'pcm'], ['sample_rate', '12000']], true, 'sample_rate must be one of 8000, 16000, 22050, 24000, 44100, 48000, not "12000".'],
    [[['sample_rate', '16000'], ['sample_rate_hertz', '16000']], true, 'sample_rate_hertz is an alias of sample_rate: give one of them.'],
    [[['format', 'true']], true, 'format=true (inverse text normalisation) needs a language.'],
    [[['audio_format', 'pcm'], ['sample_rate', '16000'], ['channels', '9']], true, 'channels must be an integer from 2 to 8, not "9".'],
    [[['channels', '2']], true, 'channels is only for raw audio (with audio_format); a container file says how many channels it has.'],
    [[['audio_format', 'pcm'], ['sample_rate', '16000'], ['multichannel', 'true']], true, 'multichannel raw audio needs channels (2 to 8).'],
    [[['diarize', 'yes']], true, 'diarize must be "true" or "false", not "yes".'],
    [[['keyterm', 'y'.repeat(51)]], true, 'keyterm 1 must be 1 to 50 characters (it has 51).'],
    [[['model', 'x']], true, 'Unknown form field "model"; the form fields are file, url, audio_format, sample_rate, sample_rate_hertz, language, format, multichannel, channels, diarize, filler_words, keyterm.'],
  ])('%j', (fields, hasFile, message) => {
    expect(formProblems(fields, hasFile)).toEqual([message]);
  });
});
