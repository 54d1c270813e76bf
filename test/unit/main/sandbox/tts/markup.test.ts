import { MPEGDecoder } from 'mpg123-decoder';
import { describe, expect, it } from 'vitest';
import { espeakLanguage } from '../../../../../main/sandbox/tts/languages';
import { parseSpeechText, readyPrefix, styleEffect } from '../../../../../main/sandbox/tts/markup';
import { EspeakEngine } from '../../../../../main/sandbox/tts/espeak';

describe('speech tags', () => {
  it('splits text into styled pieces and inline tags; the spoken text has no tags', () => {
    const parsed = parseSpeechText('Hi [pause] <whisper>quiet <slow>and slow</slow></whisper> [LAUGH] done');
    expect(parsed.spoken).toBe('Hi  quiet and slow  done');
    expect(parsed.pieces).toEqual([
      { kind: 'text', text: 'Hi ', styles: [], from: 0 },
      { kind: 'tag', tag: 'pause', styles: [], at: 3 },
      { kind: 'text', text: ' ', styles: [], from: 3 },
      { kind: 'text', text: 'quiet ', styles: ['whisper'], from: 4 },
      { kind: 'text', text: 'and slow', styles: ['whisper', 'slow'], from: 10 },
      { kind: 'text', text: ' ', styles: [], from: 18 },
      { kind: 'tag', tag: 'laugh', styles: [], at: 19 },
      { kind: 'text', text: ' done', styles: [], from: 19 },
    ]);
  });

  it('speaks what is not a spec tag, drops a stray close, and runs an unclosed tag to the end', () => {
    const parsed = parseSpeechText('See [1] and <b>bold</b></loud> <fast>quick');
    expect(parsed.spoken).toBe('See [1] and <b>bold</b> quick');
    expect(parsed.pieces.at(-1)).toEqual({ kind: 'text', text: 'quick', styles: ['fast'], from: 24 });
  });

  it('finds how much streamed text can be spoken: whole sentences, no wrapping tag open', () => {
    expect(readyPrefix('Hello there. How are')).toBe('Hello there. '.length);
    expect(readyPrefix('No sentence end yet')).toBe(0);
    expect(readyPrefix('Done?')).toBe(0);
    expect(readyPrefix('One. <slow>Two. Three')).toBe('One. '.length);
    expect(readyPrefix('One. <slow>Two.</slow> Three. Four')).toBe('One. <slow>Two.</slow> Three. '.length);
    expect(readyPrefix('He said "yes." Then')).toBe('He said "yes." '.length);
  });

  it('cuts streamed text at clause ends too (comma, semicolon, colon, a spaced dash), never inside a word or a number', () => {
    expect(readyPrefix('Well, then')).toBe('Well, '.length);
    expect(readyPrefix('First; second: third - fourth — fifth')).toBe('First; second: third - fourth — '.length);
    expect(readyPrefix('A well-known 1,000 items')).toBe(0);
    expect(readyPrefix('It said “no”, then')).toBe('It said “no”, '.length);
    // `first`: only the first clause, which the utterance's first audio waits for.
    expect(readyPrefix('Hello there, my friend; how are you? Fine', 'first')).toBe('Hello there, '.length);
    expect(readyPrefix('Hello there, my friend; how are you? Fine')).toBe('Hello there, my friend; how are you? '.length);
    // Never across an open wrapping tag.
    expect(readyPrefix('<slow>One, two</slow>, three', 'first')).toBe('<slow>One, two</slow>, '.length);
    expect(readyPrefix('No end here', 'first')).toBe(0);
  });

  it('turns wrapping tags into eSpeak controls', () => {
    expect(styleEffect(['whisper']).whisper).toBe(true);
    expect(styleEffect(['slow']).rate).toBeLessThan(1);
    expect(styleEffect(['fast', 'higher-pitch'])).toMatchObject({ rate: 1.35, pitch: 25 });
    expect(styleEffect(['loud']).amplitude).toBeGreaterThan(styleEffect(['soft']).amplitude * 3);
    expect(styleEffect(['build-intensity']).gainTo).toBeGreaterThan(styleEffect(['build-intensity']).gainFrom);
  });
});

describe('languages', () => {
  it('maps each spec language, case-insensitively, and auto by script', () => {
    expect(espeakLanguage('EN', '')).toEqual({ voice: 'en-us' });
    expect(espeakLanguage('pt-br', '')).toEqual({ voice: 'pt-br' });
    expect(espeakLanguage('es-MX', '')).toEqual({ voice: 'es-419' });
    expect(espeakLanguage('zh', '')).toEqual({ voice: 'cmn' });
    expect(espeakLanguage('nl-BE', '')).toEqual({ voice: 'nl' });
    expect(espeakLanguage('auto', 'こんにちは')).toEqual({ voice: 'ja' });
    expect(espeakLanguage('auto', 'مرحبا')).toEqual({ voice: 'ar' });
    expect(espeakLanguage('auto', 'hello')).toEqual({ voice: 'en-us' });
    expect(espeakLanguage('xx', '')).toMatchObject({ error: expect.stringContaining('is not supported') });
  });
});

describe('eSpeak engine', () => {
  it('starts one worker and keeps it for every call, each call independent of the last', async () => {
    const engine = new EspeakEngine();
    const a = await engine.synthesize({ voice: 'en-us', pitch: 50, wpm: 175, text: 'Hello there.' });
    await engine.synthesize({ voice: 'fr-fr+f3', pitch: 80, wpm: 300, text: 'Bonjour tout le monde, comment allez-vous?' });
    const b = await engine.synthesize({ voice: 'en-us', pitch: 50, wpm: 175, text: 'Hello there.' });
    expect(engine.starts).toBe(1);
    expect(engine.calls).toBe(3);
    // The snapshot restore resets eSpeak: the same call gives the same samples.
    expect(b).toEqual(a);
    expect(a.length / 22050).toBeGreaterThan(0.5);
    // MP3 is encoded in the same worker, one stream per utterance, fed in order.
    const stream = engine.mp3Stream(22050, 64);
    const pcm = Int16Array.from(a, (v) => Math.round(v * 32767));
    const bytes = Buffer.concat([await stream.write(pcm.slice(0, 10000)), await stream.write(pcm.slice(10000)), await stream.end()]);
    const decoder = new MPEGDecoder();
    await decoder.ready;
    const decoded = decoder.decode(bytes);
    decoder.free();
    expect(decoded.sampleRate).toBe(22050);
    expect(Math.abs(decoded.samplesDecoded - a.length) / 22050).toBeLessThan(0.12);
    expect(engine.starts).toBe(1);
    await engine.close();
  });
});

describe('eSpeak engine idle stop', () => {
  it('stops the worker when idle and starts it again on demand', async () => {
    const engine = new EspeakEngine(50);
    await engine.synthesize({ voice: 'en-us', pitch: 50, wpm: 175, text: 'One.' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const again = await engine.synthesize({ voice: 'en-us', pitch: 50, wpm: 175, text: 'Two.' });
    expect(engine.starts).toBe(2);
    expect(again.length).toBeGreaterThan(1000);
    await engine.close();
  });
});
