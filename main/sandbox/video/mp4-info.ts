/**
 * Reads what the sandbox needs of an MP4 without decoding it: the brand (`ftyp`), the duration
 * (`moov/mvhd`), and of the first video track (`trak` whose `hdlr` is `vide`) its size (`tkhd`)
 * and codec (the first sample entry of `stsd`). Edits and extensions use it to check an input
 * video at create and to make a result of the same length and size.
 */

/** Sample-entry types of the codecs the video endpoints accept (spec: H.264, H.265, AV1). */
export const SUPPORTED_VIDEO_CODECS: Readonly<Record<string, string>> = {
  avc1: 'H.264',
  avc3: 'H.264',
  hvc1: 'H.265',
  hev1: 'H.265',
  av01: 'AV1',
};

export interface Mp4Info {
  /** The major brand of `ftyp`, e.g. `isom`. */
  brand: string;
  /** Seconds, from `mvhd` (timescale and duration). */
  durationSeconds: number;
  /** Pixels, from the video track's `tkhd` (16.16 fixed point, rounded). */
  width: number;
  height: number;
  /** The video sample entry's type, e.g. `avc1`. */
  codec: string;
}

/** Why bytes are not a usable MP4; the message says what was found and reads after a field name. */
export class Mp4Error extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Mp4Error';
  }
}

interface Box {
  type: string;
  /** Offset of the payload (after the header) and of the end, in the whole buffer. */
  start: number;
  end: number;
}

function fourcc(b: Uint8Array, at: number): string {
  return String.fromCharCode(b[at], b[at + 1], b[at + 2], b[at + 3]);
}

/** The boxes between `from` and `to` (one level); stops at a box that runs past `to`. */
function boxes(b: Uint8Array, view: DataView, from: number, to: number): Box[] {
  const out: Box[] = [];
  let at = from;
  while (at + 8 <= to) {
    let size = view.getUint32(at);
    const type = fourcc(b, at + 4);
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) break;
      size = Number(view.getBigUint64(at + 8));
      header = 16;
    } else if (size === 0) {
      size = to - at;
    }
    if (size < header || at + size > to) {
      out.push({ type, start: at + header, end: -1 });
      break;
    }
    out.push({ type, start: at + header, end: at + size });
    at += size;
  }
  return out;
}

function child(b: Uint8Array, view: DataView, parent: Box, type: string): Box | undefined {
  return boxes(b, view, parent.start, parent.end).find((x) => x.type === type && x.end >= 0);
}

/** Parses the boxes; throws Mp4Error when they are not an MP4 with a video track of a supported codec. */
export function readMp4Info(bytes: Uint8Array): Mp4Info {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const top = boxes(bytes, view, 0, bytes.length);
  if (top[0]?.type !== 'ftyp') throw new Mp4Error('is not an MP4 file (it does not start with an ftyp box)');
  const ftyp = top[0];
  const brand = ftyp.end >= ftyp.start + 4 ? fourcc(bytes, ftyp.start) : '';
  if (brand === 'qt  ') throw new Mp4Error('is a QuickTime (.mov) file, not an MP4');
  const moov = top.find((x) => x.type === 'moov');
  if (!moov) throw new Mp4Error('is not a complete MP4: it has no moov box (the file may be cut short)');
  if (moov.end < 0) throw new Mp4Error('is not a complete MP4: its moov box is cut short');
  const mvhd = child(bytes, view, moov, 'mvhd');
  if (!mvhd) throw new Mp4Error('is not a complete MP4: its moov box has no mvhd (movie header)');
  const durationSeconds = movieDuration(view, mvhd);
  for (const trak of boxes(bytes, view, moov.start, moov.end).filter((x) => x.type === 'trak' && x.end >= 0)) {
    const mdia = child(bytes, view, trak, 'mdia');
    const hdlr = mdia && child(bytes, view, mdia, 'hdlr');
    if (!hdlr || hdlr.end < hdlr.start + 12 || fourcc(bytes, hdlr.start + 8) !== 'vide') continue;
    const tkhd = child(bytes, view, trak, 'tkhd');
    if (!tkhd) throw new Mp4Error('has a video track without a tkhd (track header)');
    const { width, height } = trackSize(view, tkhd);
    const minf = child(bytes, view, mdia, 'minf');
    const stbl = minf && child(bytes, view, minf, 'stbl');
    const stsd = stbl && child(bytes, view, stbl, 'stsd');
    // stsd: version/flags (4), entry count (4), then sample entries (size, type, ...).
    if (!stsd || stsd.end < stsd.start + 16) throw new Mp4Error('has a video track without a sample description (stsd)');
    const codec = fourcc(bytes, stsd.start + 12);
    if (!(codec in SUPPORTED_VIDEO_CODECS)) {
      throw new Mp4Error(`uses the codec "${codec.trim()}", which is not supported; use ${supportedCodecList()}`);
    }
    return { brand, durationSeconds, width, height, codec };
  }
  throw new Mp4Error('has no video track (an MP4 with audio only?)');
}

/** `H.264 (avc1/avc3), H.265 (hvc1/hev1) or AV1 (av01)`. */
export function supportedCodecList(): string {
  const byName = new Map<string, string[]>();
  for (const [type, name] of Object.entries(SUPPORTED_VIDEO_CODECS)) byName.set(name, [...(byName.get(name) ?? []), type]);
  const parts = [...byName].map(([name, types]) => `${name} (${types.join('/')})`);
  return `${parts.slice(0, -1).join(', ')} or ${parts[parts.length - 1]}`;
}

function movieDuration(view: DataView, mvhd: Box): number {
  const version = view.getUint8(mvhd.start);
  // v0: creation(4) modification(4) timescale(4) duration(4); v1: 8, 8, 4, 8.
  const need = version === 1 ? 32 : 20;
  if (mvhd.end < mvhd.start + need) throw new Mp4Error('has a movie header (mvhd) cut short');
  const timescale = view.getUint32(mvhd.start + (version === 1 ? 20 : 12));
  const duration = version === 1 ? Number(view.getBigUint64(mvhd.start + 24)) : view.getUint32(mvhd.start + 16);
  if (timescale === 0) throw new Mp4Error('has a movie header (mvhd) with a timescale of 0');
  return duration / timescale;
}

function trackSize(view: DataView, tkhd: Box): { width: number; height: number } {
  const version = view.getUint8(tkhd.start);
  // After version/flags: times and ids (v0 20 bytes, v1 32), reserved 8, layer 2, group 2,
  // volume 2, reserved 2, matrix 36, then width and height as 16.16 fixed point.
  const at = tkhd.start + 4 + (version === 1 ? 32 : 20) + 8 + 8 + 36;
  if (tkhd.end < at + 8) throw new Mp4Error('has a track header (tkhd) cut short');
  return { width: Math.round(view.getUint32(at) / 65536), height: Math.round(view.getUint32(at + 4) / 65536) };
}
