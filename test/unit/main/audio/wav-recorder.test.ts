import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseWav } from '../../../../shared/audio/wav';
import { WavRecorder } from '../../../../main/audio/wav-recorder';
import { concat, sine } from './helpers';

const dir = mkdtempSync(join(tmpdir(), 'wav-recorder-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('WavRecorder', () => {
  it('writes frames as they come and a header with the right sizes on dispose', () => {
    const path = join(dir, 'call.wav');
    const rec = new WavRecorder(path, 24000, 2);
    const parts = [sine(24000, 300, 480, 2), sine(24000, 500, 480, 2), sine(24000, 700, 100, 2)];
    for (const p of parts) rec.write(p);
    expect(rec.durationMs).toBeCloseTo(1060 / 24, 6);
    rec.dispose();
    rec.dispose(); // twice is fine
    const parsed = parseWav(readFileSync(path));
    expect(parsed.ok && { rate: parsed.value.sampleRate, channels: parsed.value.channels, truncated: parsed.value.truncated, samples: parsed.value.samples }).toEqual({
      rate: 24000,
      channels: 2,
      truncated: false,
      samples: concat(parts),
    });
    const probe = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', path], { encoding: 'utf8' })).streams[0];
    expect(Number(probe.duration)).toBeCloseTo(1060 / 24000, 3);
  });

  it('leaves a readable file when the process dies before dispose (data size 0 = to the end)', () => {
    const path = join(dir, 'crash.wav');
    const rec = new WavRecorder(path, 16000, 1);
    const audio = sine(16000, 440, 1600);
    rec.write(audio);
    const parsed = parseWav(readFileSync(path));
    expect(parsed.ok && parsed.value.samples).toEqual(audio);
    rec.dispose();
  });

  it('refuses half a frame and writes after dispose', () => {
    const rec = new WavRecorder(join(dir, 'x.wav'), 8000, 2);
    expect(() => rec.write(new Int16Array(3))).toThrow(/whole/);
    rec.dispose();
    expect(() => rec.write(new Int16Array(2))).toThrow(/closed/);
  });
});
