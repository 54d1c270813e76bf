// The native audio layer (naudiodon/PortAudio) against ALSA's `file` plugin: what is played lands
// in a raw file, capture reads from one (../shared/testing/asoundrc.example). PortAudio reads
// ~/.asoundrc at start-up, so each case runs test/audio/alsa-child.ts with HOME set to a folder
// holding one. The file device is not paced: these tests check values, never timing.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mixToMono } from '../../shared/audio/pcm';
import { Resampler } from '../../shared/audio/resampler';
import { encodeWav, parseWav, type ParsedWav } from '../../shared/audio/wav';
import { flushItem } from './flush-items';

const ROOT = resolve(__dirname, '../..');
const CHILD = join(ROOT, 'test/audio/alsa-child.ts');
const TSX = join(ROOT, 'node_modules/tsx/dist/cli.mjs');

let home: string;
let speech: ParsedWav;

/** Mono -> stereo, both channels the same. */
function stereo(mono: Int16Array): Int16Array {
  const out = new Int16Array(mono.length * 2);
  for (let i = 0; i < mono.length; i++) out[i * 2] = out[i * 2 + 1] = mono[i];
  return out;
}

function child(...args: string[]): void {
  execFileSync(process.execPath, [TSX, CHILD, ...args], { env: { ...process.env, HOME: home }, stdio: ['ignore', 'ignore', 'pipe'], timeout: 60_000 });
}

type ESpeak = (options: { arguments: string[] }) => Promise<{ FS: { readFile(path: string): Uint8Array } }>;

/** eSpeak NG compiled to WebAssembly (npm), loaded by name: it ships no type declarations. */
async function loadEspeak(): Promise<ESpeak> {
  const name = 'espeak-ng';
  return ((await import(name)) as { default: ESpeak }).default;
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'alsa-file-'));
  const template = readFileSync(join(ROOT, 'test/audio/asoundrc.template'), 'utf8');
  writeFileSync(join(home, '.asoundrc'), template.replaceAll('PLAYBACK_RAW_FILE', join(home, 'played.raw')).replaceAll('CAPTURE_RAW_FILE', join(home, 'capture.raw')));
  // ALSA leaves the capture device out of the list (and the defaults move) while its infile is missing.
  writeFileSync(join(home, 'capture.raw'), new Uint8Array(0));
  const espeak = await (await loadEspeak())({ arguments: ['-v', 'en-us', '-w', 'speech.wav', 'The quick brown fox jumps over the lazy dog.'] });
  const parsed = parseWav(espeak.FS.readFile('speech.wav'));
  if (!parsed.ok) throw new Error(parsed.error.message);
  speech = parsed.value;
}, 60_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('native audio on the ALSA file device', () => {
  it('lists the file devices with the default for both directions', () => {
    const out = join(home, 'devices.json');
    child('devices', out);
    const list = JSON.parse(readFileSync(out, 'utf8'));
    expect(list.ok).toBe(true);
    const names = list.value.devices.map((d: { name: string }) => d.name);
    expect(names).toEqual(expect.arrayContaining(['fileplay', 'filecap', 'default']));
    expect(list.value.defaultInputId).toBe('ALSA:default');
    expect(list.value.defaultOutputId).toBe('ALSA:default');
  });

  it('sees a device plugged in and pulled out (polling PortAudio\'s list)', () => {
    const out = join(home, 'hotplug.json');
    child('hotplug', out);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual([
      { added: ['ALSA:headset'], removed: [] },
      { added: [], removed: ['ALSA:headset'] },
    ]);
  }, 60_000);

  it('answers a missing device and an impossible format with error values, not exceptions', () => {
    const out = join(home, 'errors.json');
    child('errors', out);
    const { missing, badRate } = JSON.parse(readFileSync(out, 'utf8'));
    expect(missing).toEqual({ ok: false, error: { code: 'no_device', message: 'The microphone "ALSA:no-such-mic" is not connected. Pick another one, or plug it back in.' } });
    expect(badRate.ok).toBe(false);
    expect(badRate.error.code).toBe('device_error');
    expect(badRate.error.message).toMatch(/^"default" could not be opened at 1 Hz, 2 channel\(s\): /);
  }, 60_000);

  it('plays speech through the jitter buffer into the output file exactly as the resampled PCM', () => {
    const wavPath = join(home, 'speech.wav');
    writeFileSync(wavPath, encodeWav(speech));
    const out = join(home, 'playback.json');
    child('playback', wavPath, out);
    const { stats, errors } = JSON.parse(readFileSync(out, 'utf8'));
    expect(errors).toEqual([]);
    expect(stats.underruns).toBe(0);

    const r = new Resampler(speech.sampleRate, 48000, 1);
    const expected = stereo(new Int16Array([...r.push(speech.samples), ...r.flush()]));
    const raw = readFileSync(join(home, 'played.raw'));
    const played = new Int16Array(raw.buffer, raw.byteOffset, raw.byteLength >> 1);
    // Silence comes before the speech (the device is fed silence until the jitter buffer fills): line up on the first sound.
    const firstExpected = expected.findIndex((s) => s !== 0);
    const firstPlayed = played.findIndex((s) => s !== 0);
    const offset = firstPlayed - firstExpected;
    expect(offset).toBeGreaterThanOrEqual(0);
    expect(played.subarray(0, offset).every((s) => s === 0)).toBe(true);
    expect(played.subarray(offset, offset + expected.length)).toEqual(expected);
    // PortAudio primes the device with some silence of its own before our first period.
    expect(offset / 2).toBeGreaterThanOrEqual(stats.framesBeforeFirstAudio);
    expect(stats.playedMs).toBeCloseTo((expected.length / 2 / 48000) * 1000, 6);
  }, 90_000);

  it('flush() (a barge-in) answers exactly the ms of the item that reached the device; nothing of it is written after; the next item plays whole', () => {
    const out = join(home, 'flush.json');
    rmSync(join(home, 'played.raw'), { force: true });
    child('flush', out);
    const { heardMs, afterFlush, stats, aFrames, bFrames, errors } = JSON.parse(readFileSync(out, 'utf8'));
    expect(errors).toEqual([]);
    const raw = readFileSync(join(home, 'played.raw'));
    const played = new Int16Array(raw.buffer, raw.byteOffset, raw.byteLength >> 1);
    const left = played.filter((_, i) => i % 2 === 0);
    expect(played.filter((_, i) => i % 2 === 1)).toEqual(left); // mono copied to both channels
    // Item A is positive and B negative, neither ever zero: the file is silence, A's head, silence, all of B, silence.
    const aStart = left.findIndex((v) => v !== 0);
    let aEnd = aStart;
    while (aEnd < left.length && left[aEnd] > 0) aEnd++;
    const heardFrames = aEnd - aStart;
    // What flush() answered is what reached the device (the file), to the frame.
    expect(heardMs).toBeCloseTo((heardFrames * 1000) / 48000, 6);
    expect(afterFlush.playedMs).toBeLessThanOrEqual(heardMs + 1e-6);
    // The flush cut A short, and what did play of it is A's head, in order.
    expect(heardFrames).toBeGreaterThanOrEqual(4800);
    expect(heardFrames).toBeLessThan(aFrames);
    expect(left.subarray(aStart, aEnd)).toEqual(flushItem(aFrames, 1).subarray(0, heardFrames));
    // Nothing of A after the flush: the rest is silence and B, whole and in order.
    const rest = left.subarray(aEnd);
    expect(rest.some((v) => v > 0)).toBe(false);
    const bStart = rest.findIndex((v) => v !== 0);
    expect(bStart).toBeGreaterThanOrEqual(0);
    expect(rest.subarray(bStart, bStart + bFrames)).toEqual(flushItem(bFrames, -1));
    expect(rest.subarray(bStart + bFrames).every((v) => v === 0)).toBe(true);
    expect(stats.playedMs).toBeCloseTo(((heardFrames + bFrames) * 1000) / 48000, 6);
  }, 90_000);

  it('captures speech from the input file as 20 ms frames at 16 kHz equal to the resampled file', () => {
    // The input file: the speech at 48 kHz stereo, the format the device is set to.
    const r = new Resampler(speech.sampleRate, 48000, 1);
    const file48 = new Int16Array([...r.push(speech.samples), ...r.flush()]);
    const fileStereo = stereo(file48);
    writeFileSync(join(home, 'capture.raw'), new Uint8Array(fileStereo.buffer));
    // Only frames whose every input sample comes from the file (the resampler looks ~20 samples ahead).
    const frames = Math.floor((file48.length / 3 - 32) / 320);
    const outRaw = join(home, 'captured.raw');
    const outJson = join(home, 'capture.json');
    child('capture', String(frames), outRaw, outJson);
    const result = JSON.parse(readFileSync(outJson, 'utf8'));
    expect(result.errors).toEqual([]);
    expect(result.seqs).toEqual([...Array(frames).keys()]);
    expect(result.starts).toEqual([...Array(frames).keys()].map((i) => i * 20));
    expect(new Set(result.lengths)).toEqual(new Set([320]));
    const raw = readFileSync(outRaw);
    const captured = new Int16Array(raw.buffer, raw.byteOffset, raw.byteLength >> 1);
    const expected = new Resampler(48000, 16000, 1).push(mixToMono(fileStereo, 2)).subarray(0, frames * 320);
    expect(captured).toEqual(expected);
    expect(expected.some((s) => Math.abs(s) > 1000)).toBe(true); // it is speech, not silence
  }, 90_000);
});
