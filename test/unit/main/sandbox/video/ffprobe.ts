/** Test helper: what ffprobe (and, for frames, ffmpeg) says about MP4 bytes. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Probe {
  codec: string;
  width: number;
  height: number;
  duration: number;
}

export function ffprobe(bytes: Uint8Array): Probe {
  const dir = mkdtempSync(join(tmpdir(), 'probe-'));
  try {
    const file = join(dir, 'v.mp4');
    writeFileSync(file, bytes);
    const run = spawnSync(
      'ffprobe',
      ['-v', 'error', '-show_entries', 'stream=codec_name,width,height', '-show_entries', 'format=duration', '-of', 'json', file],
      { encoding: 'utf8' },
    );
    if (run.status !== 0) throw new Error(`ffprobe failed: ${run.stderr}`);
    const out = JSON.parse(run.stdout) as { streams: Array<{ codec_name: string; width: number; height: number }>; format: { duration: string } };
    const [stream] = out.streams;
    return { codec: stream.codec_name, width: stream.width, height: stream.height, duration: Number(out.format.duration) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}


/** Frame `index` (0-based) as raw RGB24 pixels, decoded by ffmpeg. */
export function frameRgb(bytes: Uint8Array, index: number): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'frame-'));
  try {
    const file = join(dir, 'v.mp4');
    writeFileSync(file, bytes);
    const out = join(dir, 'f.rgb');
    const args = ['-v', 'error', '-i', file, '-vf', `select=eq(n\\,${index})`, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-y', out];
    const run = spawnSync('ffmpeg', args, { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`ffmpeg failed: ${run.stderr}`);
    const rgb = new Uint8Array(readFileSync(out));
    if (rgb.length === 0) throw new Error(`ffmpeg found no frame ${index}`);
    return rgb;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function meanAbsDiff(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) throw new Error(`sizes differ: ${a.length} and ${b.length}`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
  return sum / a.length;
}
