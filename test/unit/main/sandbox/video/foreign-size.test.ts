/**
 * A foreign MP4's size comes from its header, which costs its sender nothing: both sides and the
 * pixel rate of what the sandbox then encodes must be bounded (issue 14, item 24).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foreignFrameSize, MAX_FRAME_LONG_SIDE, MAX_FRAME_SHORT_SIDE } from '../../../../../main/sandbox/video/plan';
import { useHarness } from '../harness';
import { create, dataUrl, EDITS, EXTENSIONS, NO_ENCODE, refusal } from '../routes/videos-helpers';

function box(type: string, ...payload: Uint8Array[]): Uint8Array {
  const body = Buffer.concat(payload);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}

/** The smallest MP4 readMp4Info accepts: ftyp, and a moov with one H.264 video track of this size, 1 s long. */
function tinyMp4(width: number, height: number): Uint8Array {
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(1000, 12); // timescale
  mvhd.writeUInt32BE(1000, 16); // duration: 1 s
  const tkhd = Buffer.alloc(84);
  tkhd.writeUInt32BE(width * 65536, 76);
  tkhd.writeUInt32BE(height * 65536, 80);
  const hdlr = Buffer.alloc(24);
  hdlr.write('vide', 8, 'latin1');
  const stsd = Buffer.concat([Buffer.from([0, 0, 0, 0, 0, 0, 0, 1]), box('avc1', Buffer.alloc(78))]);
  const stbl = box('stbl', box('stsd', stsd));
  const trak = box('trak', box('tkhd', tkhd), box('mdia', box('hdlr', hdlr), box('minf', stbl)));
  return Buffer.concat([box('ftyp', Buffer.from('isom\0\0\x02\0isom', 'latin1')), box('moov', box('mvhd', mvhd), trak), box('mdat', Buffer.alloc(64))]);
}

describe('foreign MP4 frame size', () => {
  it.each([
    [65535, 1080, 1920, 32],
    [4096, 1080, 1920, 506],
    [3840, 2160, 1920, 1080],
    [2160, 3840, 1080, 1920],
    [1080, 1080, 1080, 1080],
    [1440, 1080, 1440, 1080],
    [1000, 500, 1000, 500],
  ])('%ix%i is drawn at %ix%i', (w, h, ew, eh) => {
    expect(foreignFrameSize(w, h)).toEqual({ width: ew, height: eh });
  });

  it('never exceeds the largest spec frame on either side or in pixels, whatever the header says', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 65535 }), fc.integer({ min: 2, max: 65535 }), (w, h) => {
        const out = foreignFrameSize(w, h);
        expect(Math.max(out.width, out.height)).toBeLessThanOrEqual(MAX_FRAME_LONG_SIDE);
        expect(Math.min(out.width, out.height)).toBeLessThanOrEqual(MAX_FRAME_SHORT_SIDE);
        expect(out.width * out.height).toBeLessThanOrEqual(MAX_FRAME_LONG_SIDE * MAX_FRAME_SHORT_SIDE);
      }),
    );
  });
});

describe('video edits and extensions of a foreign MP4 with a huge header', () => {
  const lines: string[] = [];
  const h = useHarness({ log: (line) => lines.push(line) });

  it('refuses a header past 8K on a side, saying so', async () => {
    const mp4 = tinyMp4(65535, 1080);
    expect(mp4.length).toBeLessThan(1024);
    for (const path of [EDITS, EXTENSIONS]) {
      expect(await refusal(h, path, { prompt: 'sepia', video: { url: dataUrl('video/mp4', mp4) } })).toEqual({
        status: 400,
        error: 'video.url says its video is 65535x1080 pixels; input videos may be at most 8192 pixels on each side (8K). Scale the video down first.',
      });
    }
  });

  it('draws a wide one at the largest spec frame, not at its own size', async () => {
    lines.length = 0;
    const id = await create(h, EDITS, { prompt: 'sepia', video: { url: dataUrl('video/mp4', tinyMp4(8000, 1080)) } }, NO_ENCODE);
    expect(lines.find((l) => l.startsWith(`video ${id} created`))).toContain('(edit, 1920x260, 1 s');
  });
});
