/**
 * Test audio for the turn modules: eSpeak NG speech (test/unit/main/sandbox/stt/speech.ts) laid
 * out with known silences, resampled with sox, and where speech is according to ffmpeg's
 * silencedetect (test-only system tools), so the detector is checked against an outside opinion.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeWav } from '../../../../../../shared/audio';
import { speak } from '../../stt/speech';

export { concat, silence, speak } from '../../stt/speech';

function withWav<T>(pcm: Int16Array, rate: number, fn: (file: string, dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'turns-'));
  try {
    const file = join(dir, 'in.wav');
    writeFileSync(file, encodeWav({ samples: pcm, sampleRate: rate, channels: 1 }));
    return fn(file, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs of speech [startMs, endMs] per ffmpeg silencedetect (-54 dB, silences of at least `minSilenceMs`). */
export function speechRuns(pcm: Int16Array, rate: number, minSilenceMs = 200): Array<[number, number]> {
  const log = withWav(pcm, rate, (file) => {
    const r = spawnSync('ffmpeg', ['-hide_banner', '-nostats', '-i', file, '-af', `silencedetect=noise=-54dB:d=${minSilenceMs / 1000}`, '-f', 'null', '-'], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`);
    return r.stderr;
  });
  const totalMs = (pcm.length / rate) * 1000;
  const starts = [...log.matchAll(/silence_start: ([\d.]+)/g)].map((m) => Number(m[1]) * 1000);
  const ends = [...log.matchAll(/silence_end: ([\d.]+)/g)].map((m) => Number(m[1]) * 1000);
  // Speech runs are the gaps between silences.
  const runs: Array<[number, number]> = [];
  let from = starts[0] === 0 || (starts.length > 0 && starts[0] < 1) ? null : 0;
  for (let i = 0; i < starts.length; i++) {
    if (from !== null && starts[i] > from) runs.push([from, starts[i]]);
    from = ends[i] ?? null;
  }
  if (from !== null && from < totalMs - 1) runs.push([from, totalMs]);
  return runs;
}

/** `speak` at another rate (sox, high quality). */
export function speakAt(text: string, rate: number, voice = 'en-us', pitch = 50): Int16Array {
  const clip = speak(text, voice, pitch);
  if (clip.rate === rate) return clip.pcm;
  return withWav(clip.pcm, clip.rate, (file, dir) => {
    const out = join(dir, 'out.raw');
    execFileSync('sox', [file, '-r', String(rate), '-b', '16', '-e', 'signed-integer', '-t', 'raw', out]);
    const bytes = execFileSync('cat', [out]);
    return new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + (bytes.length & ~1)));
  });
}

/** Scales PCM by a gain in dB. */
export function gain(pcm: Int16Array, db: number): Int16Array {
  const k = 10 ** (db / 20);
  return pcm.map((s) => Math.max(-32768, Math.min(32767, Math.round(s * k))));
}

/** Splits PCM into chunks of `ms` (the last may be shorter), as a client appends them. */
export function chunks(pcm: Int16Array, rate: number, ms: number): Int16Array[] {
  const step = Math.max(1, Math.round((rate * ms) / 1000));
  const out: Int16Array[] = [];
  for (let at = 0; at < pcm.length; at += step) out.push(pcm.slice(at, at + step));
  return out;
}

/** Sample-exact equality (vitest's deep equality walks an Int16Array element by element: slow). */
export function sameSamples(a: Int16Array, b: Int16Array): boolean {
  return a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}
