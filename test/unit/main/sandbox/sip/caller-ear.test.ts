/**
 * CallerEar: the model's audio played out in real time on the call's timeline: chunks sent ahead
 * queue after each other, a pause starts a new utterance, `heardMs` counts only what has played,
 * the first utterance's end is known once a pause followed it, the level and the transcript come
 * from the audio itself (silence has none).
 */
import { describe, expect, it } from 'vitest';
import { encodeMulaw } from '../../../../../shared/audio';
import { CallerEar } from '../../../../../main/sandbox/sip/caller-ear';

/** `ms` of a 300 Hz tone (or silence) as µ-law 8 kHz. */
function tone(ms: number, amplitude = 8000): Uint8Array {
  const n = (ms * 8000) / 1000;
  return encodeMulaw(Int16Array.from({ length: n }, (_, i) => Math.round(amplitude * Math.sin((2 * Math.PI * 300 * i) / 8000))));
}

describe('CallerEar', () => {
  it('queues chunks sent ahead and counts only what has played', () => {
    const ear = new CallerEar();
    // One second of audio sent at once, 100 ms into the call, then 500 ms more while it plays.
    ear.push(tone(1000), 100);
    ear.push(tone(500), 400);
    expect(ear.heardMs(100)).toBe(0);
    expect(ear.heardMs(600)).toBe(500);
    expect(ear.heardMs(1600)).toBe(1500);
    expect(ear.heardMs(5000)).toBe(1500);
  });

  it('starts a new utterance after a pause, and knows when the first one ended', async () => {
    const ear = new CallerEar();
    ear.push(tone(400), 0);
    ear.push(tone(200), 400);
    expect(ear.firstUtteranceEnd(700, 300)).toBeNull();
    expect(ear.firstUtteranceEnd(900, 300)).toBe(600);
    ear.push(tone(300), 2000);
    const report = await ear.report(3000);
    expect(report.utterances).toEqual([
      { startMs: 0, endMs: 600 },
      { startMs: 2000, endMs: 2300 },
    ]);
    expect(report.ms).toBe(900);
    expect(report.receivedMs).toBe(900);
    // A sine of amplitude 8000: RMS 8000/√2, 20·log10(5657/32768) = -15.3 dBFS.
    expect(report.rmsDbfs).toBeCloseTo(-15.3, 0);
  });

  it('hears silence as silence: no level, no words', async () => {
    const ear = new CallerEar();
    ear.push(tone(1000, 0), 0);
    const report = await ear.report(2000);
    expect(report.ms).toBe(1000);
    expect(report.rmsDbfs).toBeNull();
    expect(report.transcript?.words).toBe(0);
  });

  it('stops hearing an interrupted answer at once: what was queued ahead is never heard', async () => {
    const ear = new CallerEar();
    // 2 s of answer sent at once at 0; a barge-in at 700 ms.
    ear.push(tone(2000), 0);
    ear.interrupt(700);
    // The next answer, a second later, is its own utterance.
    ear.push(tone(300), 1700);
    const report = await ear.report(5000);
    expect(report.utterances).toEqual([
      { startMs: 0, endMs: 700 },
      { startMs: 1700, endMs: 2000 },
    ]);
    expect(report.ms).toBe(1000);
    expect(report.receivedMs).toBe(2300);
    expect(report.interruptions).toBe(1);
    // An interruption after the answer finished playing changes nothing.
    ear.interrupt(4000);
    expect((await ear.report(5000)).interruptions).toBe(1);
  });

  it('does not count a short pause between parts of one answer as heard', async () => {
    const ear = new CallerEar();
    ear.push(tone(500), 0);
    // The next part comes 100 ms after the first finished playing: the same utterance, 100 ms of silence inside.
    ear.push(tone(500), 600);
    expect(ear.heardMs(550)).toBe(500);
    expect(ear.heardMs(700)).toBe(600);
    const report = await ear.report(2000);
    expect(report.utterances).toEqual([{ startMs: 0, endMs: 1100 }]);
    expect(report.ms).toBe(1000);
    expect(report.receivedMs).toBe(1000);
  });
});
