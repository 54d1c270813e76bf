/**
 * The sandbox's synthetic video frames, drawn from a `ScenePlan` and a scene frame index. Pure and
 * deterministic: the same plan and index give the same pixels, so a request always makes the same
 * video, and an extension (the same plan, later indexes) starts exactly where its input ended.
 *
 * These functions also run inside the encoder's worker thread (see encoder.ts, which sends their
 * source text there), so each must use only its arguments, the other functions listed in
 * FRAME_FUNCTIONS and JavaScript built-ins: no imports, no module constants.
 *
 * A frame: a background (a gradient in the prompt's colours with drifting bands, or the input
 * picture slowly zooming and panning, tinted), circles moving on Lissajous paths, reference
 * pictures as orbiting tiles, a waveform strip per reference voice, each edit's recolouring and
 * stripes, each extension's new square fading in, and the scene frame number in the corner.
 */

export type Rgb = [number, number, number];

/** An RGBA picture (4 bytes per pixel, rows top to bottom). */
export interface Picture {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Something later requests added to a scene. */
export interface SceneLayer {
  /** `edit`: recolours every frame and adds stripes; `extend`: a new square fades in from `fromFrame`. */
  kind: 'edit' | 'extend';
  seed: number;
  color: Rgb;
  fromFrame: number;
}

/** Where an input picture's bytes are kept (the video store's folder), by the hash of the bytes. */
export interface PictureRef {
  key: string;
  mime: string;
}

/** Everything that decides a video's pixels (plain JSON: kept with the job, sent to the worker). */
export interface ScenePlan {
  width: number;
  height: number;
  fps: number;
  /** Frames in this video. */
  frames: number;
  /** Scene index of this video's first frame (an extension's first frame is its input's last). */
  startFrame: number;
  /** 32-bit seed of the motion. */
  seed: number;
  /** Background top, background bottom, first and second shape colours. */
  colors: Rgb[];
  /** Image-to-video: the picture the video starts from. */
  background: PictureRef | null;
  /** Reference-to-video: pictures shown as orbiting tiles. */
  tiles: PictureRef[];
  /** Reference voices: one waveform strip each, with this seed. */
  voices: number[];
  layers: SceneLayer[];
}

/** Pictures decoded for a plan: the background already fitted to the frame, tiles to their square. */
export interface ScenePictures {
  background: Picture | null;
  tiles: Picture[];
}

/** A pixel as the little-endian 32-bit word of R, G, B, A=255 bytes. */
export function packRgb(r: number, g: number, b: number): number {
  return ((255 << 24) | ((b & 255) << 16) | ((g & 255) << 8) | (r & 255)) >>> 0;
}

export function mixRgb(a: Rgb, b: Rgb, t: number): Rgb {
  return [Math.round(a[0] + (b[0] - a[0]) * t), Math.round(a[1] + (b[1] - a[1]) * t), Math.round(a[2] + (b[2] - a[2]) * t)];
}

/** A number in [0, 1) from a seed and a salt (a small integer hash). */
export function unitHash(seed: number, salt: number): number {
  let h = (seed ^ Math.imul(salt + 0x9e3779b9, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b) >>> 0;
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/** Fills a solid circle (clipped to the frame). */
export function fillCircle(px: Uint32Array, width: number, height: number, cx: number, cy: number, r: number, color: number): void {
  const y0 = Math.max(0, Math.ceil(cy - r));
  const y1 = Math.min(height - 1, Math.floor(cy + r));
  for (let y = y0; y <= y1; y++) {
    const dy = y - cy;
    const half = Math.sqrt(r * r - dy * dy);
    const x0 = Math.max(0, Math.ceil(cx - half));
    const x1 = Math.min(width - 1, Math.floor(cx + half));
    if (x1 >= x0) px.fill(color, y * width + x0, y * width + x1 + 1);
  }
}

/** Blends a square of `color` over the frame with opacity `alpha` (0 leaves it untouched). */
export function blendSquare(data: Uint8Array, width: number, height: number, x: number, y: number, size: number, color: Rgb, alpha: number): void {
  if (alpha <= 0) return;
  const x0 = Math.max(0, Math.round(x));
  const y0 = Math.max(0, Math.round(y));
  const x1 = Math.min(width, Math.round(x + size));
  const y1 = Math.min(height, Math.round(y + size));
  const a = Math.min(1, alpha);
  for (let yy = y0; yy < y1; yy++) {
    let i = (yy * width + x0) * 4;
    for (let xx = x0; xx < x1; xx++, i += 4) {
      data[i] += (color[0] - data[i]) * a;
      data[i + 1] += (color[1] - data[i + 1]) * a;
      data[i + 2] += (color[2] - data[i + 2]) * a;
    }
  }
}

/** Draws decimal digits in a 3x5 block font, `scale` pixels per font pixel, on a dark plate. */
export function drawNumber(px: Uint32Array, width: number, height: number, value: number, x: number, y: number, scale: number): void {
  // Each digit's 15 pixels, row by row from the top, as bits (most significant first).
  const font = [0x7b6f, 0x2c97, 0x73e7, 0x73cf, 0x5bc9, 0x79cf, 0x79ef, 0x7249, 0x7bef, 0x7bcf];
  const text = String(Math.max(0, Math.floor(value))).padStart(4, '0');
  const plate = packRgb(16, 16, 16);
  const ink = packRgb(250, 250, 250);
  const plateW = (text.length * 4 + 1) * scale;
  const plateH = 7 * scale;
  for (let yy = y; yy < Math.min(height, y + plateH); yy++) px.fill(plate, yy * width + x, yy * width + Math.min(width, x + plateW));
  for (let d = 0; d < text.length; d++) {
    const bits = font[text.charCodeAt(d) - 48];
    for (let row = 0; row < 5; row++) {
      for (let col = 0; col < 3; col++) {
        if (((bits >> (14 - (row * 3 + col))) & 1) === 0) continue;
        const gx = x + (1 + d * 4 + col) * scale;
        const gy = y + (1 + row) * scale;
        for (let yy = gy; yy < Math.min(height, gy + scale); yy++) px.fill(ink, yy * width + gx, yy * width + Math.min(width, gx + scale));
      }
    }
  }
}

/** Resamples `src` (bilinear) to cover `width` x `height`, cropping the overflow evenly. */
export function fitCover(src: Picture, width: number, height: number): Picture {
  const out = new Uint8Array(width * height * 4);
  const scale = Math.max(width / src.width, height / src.height);
  const offX = (src.width - width / scale) / 2;
  const offY = (src.height - height / scale) / 2;
  const s = src.data;
  const sw = src.width;
  let o = 0;
  for (let y = 0; y < height; y++) {
    const fy = Math.min(Math.max(offY + (y + 0.5) / scale - 0.5, 0), src.height - 1);
    const y0 = Math.floor(fy);
    const y1 = Math.min(y0 + 1, src.height - 1);
    const wy = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(Math.max(offX + (x + 0.5) / scale - 0.5, 0), sw - 1);
      const x0 = Math.floor(fx);
      const x1 = Math.min(x0 + 1, sw - 1);
      const wx = fx - x0;
      const a = (y0 * sw + x0) * 4;
      const b = (y0 * sw + x1) * 4;
      const c = (y1 * sw + x0) * 4;
      const d = (y1 * sw + x1) * 4;
      for (let k = 0; k < 3; k++) {
        const top = s[a + k] + (s[b + k] - s[a + k]) * wx;
        const bottom = s[c + k] + (s[d + k] - s[c + k]) * wx;
        out[o + k] = top + (bottom - top) * wy + 0.5;
      }
      out[o + 3] = 255;
      o += 4;
    }
  }
  return { width, height, data: out };
}

/** The gradient background: two colours top to bottom, with vertical bands drifting sideways. */
export function drawGradient(px: Uint32Array, plan: ScenePlan, s: number): void {
  const { width, height } = plan;
  const top = plan.colors[0];
  const bottom = plan.colors[1];
  const bands = 8;
  const bandW = Math.ceil(width / bands);
  const drift = Math.round((s * width) / (plan.fps * 12)) % bandW;
  for (let y = 0; y < height; y++) {
    const t = Math.min(1, Math.max(0, y / height + 0.08 * Math.sin((s / plan.fps) * 0.9 + y / 90)));
    const base = mixRgb(top, bottom, t);
    const light = packRgb(Math.min(255, base[0] + 18), Math.min(255, base[1] + 18), Math.min(255, base[2] + 18));
    const plain = packRgb(base[0], base[1], base[2]);
    const row = y * width;
    for (let b = -1; b <= bands; b++) {
      const x0 = Math.max(0, b * bandW + drift);
      const x1 = Math.min(width, (b + 1) * bandW + drift);
      if (x1 > x0) px.fill((b & 1) === 0 ? plain : light, row + x0, row + x1);
    }
  }
}

/** The picture background: slowly zooming (1.02-1.14x) and panning, tinted with the first colour. */
export function drawPicture(data: Uint8Array, plan: ScenePlan, s: number, picture: Picture): void {
  const { width, height } = plan;
  const t = s / plan.fps;
  const zoom = 1.08 + 0.06 * Math.sin(t * 0.5 + unitHash(plan.seed, 1) * 6.28);
  const panX = width * 0.025 * Math.sin(t * 0.37 + unitHash(plan.seed, 2) * 6.28);
  const panY = height * 0.025 * Math.sin(t * 0.29 + unitHash(plan.seed, 3) * 6.28);
  const tint = plan.colors[0];
  const k = 0.12;
  const cols = new Int32Array(width);
  for (let x = 0; x < width; x++) cols[x] = Math.min(width - 1, Math.max(0, Math.round((x - width / 2) / zoom + width / 2 + panX))) * 4;
  const src = picture.data;
  let o = 0;
  for (let y = 0; y < height; y++) {
    const sy = Math.min(height - 1, Math.max(0, Math.round((y - height / 2) / zoom + height / 2 + panY)));
    const row = sy * width * 4;
    for (let x = 0; x < width; x++) {
      const i = row + cols[x];
      data[o] = src[i] + (tint[0] - src[i]) * k;
      data[o + 1] = src[i + 1] + (tint[1] - src[i + 1]) * k;
      data[o + 2] = src[i + 2] + (tint[2] - src[i + 2]) * k;
      data[o + 3] = 255;
      o += 4;
    }
  }
}

/** Copies a tile picture into the frame with its top-left corner at (x, y), clipped. */
export function drawTile(data: Uint8Array, width: number, height: number, tile: Picture, x: number, y: number): void {
  const x0 = Math.max(0, Math.round(x));
  const y0 = Math.max(0, Math.round(y));
  const x1 = Math.min(width, Math.round(x) + tile.width);
  const y1 = Math.min(height, Math.round(y) + tile.height);
  if (x1 <= x0) return;
  for (let yy = y0; yy < y1; yy++) {
    const from = ((yy - Math.round(y)) * tile.width + (x0 - Math.round(x))) * 4;
    data.set(tile.data.subarray(from, from + (x1 - x0) * 4), (yy * width + x0) * 4);
  }
}

/** An edit: swaps colour channels (which way depends on the seed), pulls towards its colour, adds moving stripes. */
export function applyEdit(data: Uint8Array, plan: ScenePlan, s: number, layer: SceneLayer): void {
  const { width, height } = plan;
  const order = Math.floor(unitHash(layer.seed, 7) * 2);
  const c = layer.color;
  const stripe = Math.max(8, Math.round(height / 12));
  const shift = Math.round((s * stripe) / plan.fps);
  let o = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++, o += 4) {
      const r = data[o];
      const g = data[o + 1];
      const b = data[o + 2];
      const onStripe = ((x + y + shift) / stripe) % 2 < 0.35;
      const k = onStripe ? 0.55 : 0.3;
      const nr = order === 0 ? g : b;
      const ng = order === 0 ? b : r;
      const nb = order === 0 ? r : g;
      data[o] = nr + (c[0] - nr) * k;
      data[o + 1] = ng + (c[1] - ng) * k;
      data[o + 2] = nb + (c[2] - nb) * k;
    }
  }
}

/** Draws the frame at scene index `s` into `out` (width * height * 4 bytes). */
export function renderFrame(plan: ScenePlan, s: number, out: Uint8Array, pictures: ScenePictures): void {
  const { width, height, fps, seed } = plan;
  const px = new Uint32Array(out.buffer, out.byteOffset, width * height);
  const t = s / fps;
  if (pictures.background) drawPicture(out, plan, s, pictures.background);
  else drawGradient(px, plan, s);
  // Circles on Lissajous paths; fewer over a picture so it stays visible.
  const circles = pictures.background ? 1 : 3;
  for (let i = 0; i < circles; i++) {
    const color = i === 2 ? mixRgb(plan.colors[2], plan.colors[3], 0.5) : plan.colors[2 + i];
    const cx = width / 2 + width * 0.36 * Math.sin(t * (0.6 + unitHash(seed, 10 + i)) + unitHash(seed, 20 + i) * 6.28);
    const cy = height / 2 + height * 0.32 * Math.sin(t * (0.5 + unitHash(seed, 30 + i)) + unitHash(seed, 40 + i) * 6.28);
    const r = height * (0.07 + 0.06 * unitHash(seed, 50 + i)) * (1 + 0.15 * Math.sin(t * 2 + i));
    fillCircle(px, width, height, cx, cy, r, packRgb(color[0], color[1], color[2]));
  }
  // Reference pictures orbit the centre.
  pictures.tiles.forEach((tile, i) => {
    const a = t * 0.45 + (i * 6.28) / pictures.tiles.length;
    drawTile(out, width, height, tile, width / 2 + width * 0.28 * Math.cos(a) - tile.width / 2, height / 2 + height * 0.26 * Math.sin(a) - tile.height / 2);
  });
  // Reference voices: a strip of bars along the bottom each, heights moving like speech.
  const barW = Math.max(4, Math.round(width / 64));
  plan.voices.forEach((voice, v) => {
    const stripH = Math.round(height * 0.08);
    const base = height - 1 - v * (stripH + 4);
    const color = packRgb(90 + Math.round(unitHash(voice, 1) * 160), 90 + Math.round(unitHash(voice, 2) * 160), 90 + Math.round(unitHash(voice, 3) * 160));
    for (let b = 0; b * barW < width; b++) {
      const level = 0.5 + 0.5 * Math.sin(t * (3 + unitHash(voice, 4) * 4) + b * (0.7 + unitHash(voice, 5)));
      const h = Math.max(1, Math.round(stripH * level * (0.3 + 0.7 * unitHash(voice, 100 + b))));
      for (let y = Math.max(0, base - h); y <= base; y++) px.fill(color, y * width + b * barW, y * width + Math.min(width, b * barW + barW - 1));
    }
  });
  for (const layer of plan.layers) {
    if (layer.kind === 'edit') {
      applyEdit(out, plan, s, layer);
    } else {
      // An extension's square fades in over its first second, so its first frame is the input's last.
      const alpha = (s - layer.fromFrame) / fps;
      const size = height * 0.22;
      const x = width * (0.1 + 0.6 * unitHash(layer.seed, 1)) + width * 0.1 * Math.sin(t * 0.8);
      const y = height * (0.15 + 0.5 * unitHash(layer.seed, 2)) + height * 0.08 * Math.cos(t * 0.7);
      blendSquare(out, width, height, x, y, size, layer.color, alpha);
    }
  }
  const scale = Math.max(2, Math.round(height / 120));
  drawNumber(px, width, height, s, scale * 2, scale * 2, scale);
}

/** The functions above, by name, for the encoder's worker (see the file comment). */
export const FRAME_FUNCTIONS = [packRgb, mixRgb, unitHash, fillCircle, blendSquare, drawNumber, fitCover, drawGradient, drawPicture, drawTile, applyEdit, renderFrame];
