/**
 * Whole-file transcription (the REST core): words only where there is speech, speakers by voice,
 * channels apart, the exact duration, the same words for the same audio.
 */
import { describe, expect, it } from 'vitest';
import { transcribe, type SttResult } from '../../../../../main/sandbox/stt/transcribe';
import type { SttWord, WordStyle } from '../../../../../main/sandbox/stt/words';
import { concat, rmsOf, silence, speak } from './speech';

const plain: WordStyle = { fillerWords: false, keyterms: [], itn: false };
const low = speak('Hello there, this is the first speaker talking about the weather today.', 'en-us', 25);
const high = speak('And this is another voice, much higher, answering the question.', 'en-us+f3', 85);
const rate = low.rate;
// 0.5 s silence, voice A, 1 s silence, voice B, 0.5 s silence: where speech is, is known exactly.
const aStart = 0.5;
const aEnd = aStart + low.pcm.length / rate;
const bStart = aEnd + 1;
const bEnd = bStart + high.pcm.length / rate;
const dialogue = concat(silence(500, rate), low.pcm, silence(1000, rate), high.pcm, silence(500, rate));

const inside = (w: SttWord, from: number, to: number) => w.start >= from && w.end <= to + 0.05;

describe('transcribe', () => {
  it('puts every word inside speech, none in silence, and reports the exact duration', async () => {
    const r = await transcribe([dialogue], rate, { language: null, diarize: false, multichannel: false, style: plain });
    expect(r.duration).toBe(Math.round((dialogue.length / rate) * 100) / 100);
    const words = r.words ?? [];
    expect(words.length).toBeGreaterThan(10);
    for (const w of words) {
      expect(inside(w, aStart, aEnd) || inside(w, bStart, bEnd), `${w.text} ${w.start}-${w.end}`).toBe(true);
      expect(w.end).toBeGreaterThan(w.start);
      expect(rmsOf(dialogue, rate, w.start, w.end), `${w.text} at ${w.start} is in silence`).toBeGreaterThan(300);
    }
    // Both stretches of speech are transcribed, in order, and the text is the words.
    expect(words.some((w) => inside(w, aStart, aEnd))).toBe(true);
    expect(words.some((w) => inside(w, bStart, bEnd))).toBe(true);
    expect(words.map((w) => w.start)).toEqual([...words.map((w) => w.start)].sort((x, y) => x - y));
    expect(r.text).toBe(words.map((w) => w.text).join(' '));
    expect(r.language).toBe('en');
    expect(r.channels).toBeUndefined();
  });

  it('gives each voice its own speaker, and one voice one speaker', async () => {
    // Three voices: a low man's (about 86 Hz), the same voice higher (about 128 Hz), a woman's (about 213 Hz).
    const mid = speak('Then a middle voice says something else entirely.', 'en-us', 70);
    const woman = speak('And this is another voice, answering the question.', 'en-us+f3', 50);
    const parts = [low.pcm, mid.pcm, woman.pcm];
    const gap = silence(1000, rate);
    const three = concat(parts[0], gap, parts[1], gap, parts[2]);
    const r = await transcribe([three], rate, { language: null, diarize: true, multichannel: false, style: plain });
    let from = 0;
    for (const [speaker, part] of parts.entries()) {
      const to = from + part.length / rate;
      const own = (r.words ?? []).filter((w) => inside(w, from, to));
      expect(own.length).toBeGreaterThan(2);
      expect(new Set(own.map((w) => w.speaker)), `speaker ${speaker}`).toEqual(new Set([speaker]));
      from = to + 1;
    }

    const same = concat(low.pcm, silence(1000, rate), speak('A second sentence in the same low voice, after a pause.', 'en-us', 25).pcm);
    const one = await transcribe([same], rate, { language: null, diarize: true, multichannel: false, style: plain });
    expect(new Set((one.words ?? []).map((w) => w.speaker))).toEqual(new Set([0]));
    // Without diarize, no speaker field at all.
    const plainRun = await transcribe([dialogue], rate, { language: null, diarize: false, multichannel: false, style: plain });
    expect((plainRun.words ?? []).every((w) => !('speaker' in w))).toBe(true);
  });

  it('transcribes channels separately with multichannel, and mixes them down without', async () => {
    const left = concat(low.pcm, silence(1000 + (high.pcm.length * 1000) / rate, rate));
    const right = concat(silence(1000 + (low.pcm.length * 1000) / rate, rate), high.pcm);
    const n = Math.min(left.length, right.length);
    const l = left.subarray(0, n);
    const rt = right.subarray(0, n);
    const r = await transcribe([l, rt], rate, { language: 'en-US', diarize: false, multichannel: true, style: plain });
    expect(r.channels?.map((c) => c.channel_index)).toEqual([0, 1]);
    const [c0, c1] = r.channels as NonNullable<SttResult['channels']>;
    const split = low.pcm.length / rate + 0.05;
    expect(c0.words.length).toBeGreaterThan(3);
    expect(c1.words.length).toBeGreaterThan(3);
    expect(c0.words.every((w) => w.end <= split)).toBe(true);
    expect(c1.words.every((w) => w.start >= split - 0.05 + 1 - 0.05)).toBe(true);
    expect(c0.duration).toBe(Math.round((n / rate) * 100) / 100);
    // The top level interleaves both channels by time.
    expect(r.words).toEqual([...c0.words, ...c1.words].sort((x, y) => x.start - y.start));
    expect(r.language).toBe('en-US');
    const mixed = await transcribe([l, rt], rate, { language: null, diarize: false, multichannel: false, style: plain });
    expect(mixed.channels).toBeUndefined();
    expect((mixed.words ?? []).length).toBeGreaterThan(6);
  });

  it('gives the same words for the same audio and other words for other audio', async () => {
    const one = await transcribe([low.pcm], rate, { language: null, diarize: false, multichannel: false, style: plain });
    const again = await transcribe([low.pcm], rate, { language: null, diarize: false, multichannel: false, style: plain });
    const other = await transcribe([high.pcm], rate, { language: null, diarize: false, multichannel: false, style: plain });
    expect(again).toEqual(one);
    expect(other.text).not.toBe(one.text);
  });

  it('keeps filler words only when asked, uses key terms, writes numbers as digits with ITN', async () => {
    const long = concat(dialogue, dialogue.map((s) => Math.round(s * 0.9)), dialogue.map((s) => Math.round(s * 0.8)));
    const run = (style: WordStyle) => transcribe([long], rate, { language: null, diarize: false, multichannel: false, style });
    const withFillers = (await run({ ...plain, fillerWords: true })).words ?? [];
    const without = (await run(plain)).words ?? [];
    const fillers = withFillers.filter((w) => w.text === 'um' || w.text === 'uh');
    expect(fillers.length).toBeGreaterThan(0);
    expect(without).toEqual(withFillers.filter((w) => !fillers.includes(w)));
    const keyed = (await run({ ...plain, keyterms: ['Workbench', 'Galileo'] })).words ?? [];
    expect(keyed.some((w) => w.text === 'Workbench' || w.text === 'Galileo')).toBe(true);
    const spelled = without.filter((w) => /^(two|five|seven|twelve|twenty|forty|ninety)$/.test(w.text));
    expect(spelled.length).toBeGreaterThan(0);
    const itn = (await run({ ...plain, itn: true })).words ?? [];
    expect(itn.filter((w) => /^\d+$/.test(w.text)).length).toBe(spelled.length);
  });
});
