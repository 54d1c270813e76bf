/**
 * The encoder's worker (eval'd source, WebAssembly x264) from the TypeScript sources as vitest
 * runs them: it makes a playable H.264 MP4 of the plan's size and length (ffprobe), keeps the
 * event loop free while it works, and the MP4 reader sees what ffprobe sees and refuses what is
 * not a usable MP4.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { VideoEncoder, workerSource } from '../../../../../main/sandbox/video/encoder';
import { unpackedPath } from '../../../../../main/sandbox/media/unpacked-path';
import { generationPlan } from '../../../../../main/sandbox/video/plan';
import { Mp4Error, readMp4Info } from '../../../../../main/sandbox/video/mp4-info';
import { ffprobe } from './ffprobe';

const encoder = new VideoEncoder({ idleMs: 200 });
afterAll(() => encoder.close());

const plan = generationPlan({ prompt: 'teal waves', aspectRatio: '9:16', resolution: '480p', duration: 1, background: null, tiles: [], voices: ['eve'], salt: 't' });

/** Replaces the first occurrence of an ASCII string after `from` (test surgery on boxes). */
function patch(bytes: Uint8Array, find: string, replace: string, from = 0): Uint8Array {
  const copy = new Uint8Array(bytes);
  const at = Buffer.from(copy).indexOf(find, from);
  if (at < 0) throw new Error(`${find} not found`);
  copy.set(Buffer.from(replace), at);
  return copy;
}

describe('the video encoder', () => {
  let mp4: Uint8Array;

  it('encodes a plan in its worker to an H.264 MP4 without holding the event loop', async () => {
    let maxLag = 0;
    let last = Date.now();
    const ticker = setInterval(() => {
      const now = Date.now();
      maxLag = Math.max(maxLag, now - last - 5);
      last = now;
    }, 5);
    try {
      mp4 = await encoder.encode({ plan, background: null, tiles: [] });
    } finally {
      clearInterval(ticker);
    }
    expect(ffprobe(mp4)).toEqual({ codec: 'h264', width: 480, height: 854, duration: 1 });
    // Encoding this on the event loop would hold it for the whole encode (~0.4 s); the worker
    // leaves only scheduling noise (a few ms; more when other test files load both cores).
    expect(maxLag).toBeLessThan(150);
  });

  it('sends the worker plain JavaScript (no test-runner or bundler names)', () => {
    const source = workerSource();
    expect(source).not.toMatch(/__vi_|__vite_ssr|import\s*\(/);
    expect(source).toContain('createH264MP4Encoder');
  });

  it('reads duration, size and codec from the boxes', () => {
    expect(readMp4Info(mp4)).toMatchObject({ durationSeconds: 1, width: 480, height: 854, codec: 'avc1' });
  });

  it('refuses an unsupported codec, a cut-short file and bytes that are not an MP4', () => {
    const stsd = Buffer.from(mp4).indexOf('stsd');
    expect(() => readMp4Info(patch(mp4, 'avc1', 'mp4v', stsd))).toThrow(/uses the codec "mp4v", which is not supported; use H\.264 \(avc1\/avc3\), H\.265 \(hvc1\/hev1\) or AV1 \(av01\)/);
    expect(readMp4Info(patch(mp4, 'avc1', 'hvc1', stsd)).codec).toBe('hvc1');
    const moov = Buffer.from(mp4).indexOf('moov');
    expect(() => readMp4Info(mp4.subarray(0, moov + 40))).toThrow(Mp4Error);
    expect(() => readMp4Info(new TextEncoder().encode('hello, not a video at all'))).toThrow(/does not start with an ftyp box/);
  });

  it('rejects jobs after close', async () => {
    const closed = new VideoEncoder();
    await closed.close();
    await expect(closed.encode({ plan, background: null, tiles: [] })).rejects.toThrow(/closing/);
  });
});

describe('unpackedPath', () => {
  it('points a module inside a packaged app.asar at app.asar.unpacked, and leaves other paths alone', () => {
    expect(unpackedPath('/opt/Workbench/resources/app.asar/node_modules/h264-mp4-encoder/embuild/dist/h264-mp4-encoder.node.js')).toBe(
      '/opt/Workbench/resources/app.asar.unpacked/node_modules/h264-mp4-encoder/embuild/dist/h264-mp4-encoder.node.js',
    );
    expect(unpackedPath('C:\\Workbench\\resources\\app.asar\\node_modules\\pngjs\\lib\\png.js')).toBe('C:\\Workbench\\resources\\app.asar.unpacked\\node_modules\\pngjs\\lib\\png.js');
    expect(unpackedPath('/work/main/node_modules/jpeg-js/index.js')).toBe('/work/main/node_modules/jpeg-js/index.js');
  });
});
