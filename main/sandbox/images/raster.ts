/**
 * Drawing on RGBA buffers in slices: work goes a band of rows at a time with a turn of the event
 * loop between bands, so a 2048x2048 picture never blocks the app's main process for long (each
 * band is ~256k pixels, a few milliseconds).
 */
import type { RgbaImage } from '../media/image-codec';
import type { Rgb } from './palette';

const BAND_PIXELS = 256 * 1024;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Calls `draw(y0, y1)` over [0, height) in bands, yielding between them; stops early when `signal` aborts. */
export async function inBands(width: number, height: number, draw: (y0: number, y1: number) => void, signal?: AbortSignal): Promise<void> {
  const rows = Math.max(1, Math.floor(BAND_PIXELS / width));
  for (let y = 0; y < height; y += rows) {
    if (signal?.aborted) return;
    draw(y, Math.min(height, y + rows));
    await nextTurn();
  }
}

/**
 * Draws `src` into the rectangle (x, y, w, h) of `dst`, scaled to cover it (centre crop, the
 * aspect ratio kept) with bilinear sampling; rows [y0, y1) of the rectangle only.
 */
export function drawCoverRows(dst: RgbaImage, rect: { x: number; y: number; w: number; h: number }, src: RgbaImage, y0: number, y1: number): void {
  const cellRatio = rect.w / rect.h;
  const srcRatio = src.width / src.height;
  // The part of src that is shown: all of it along one axis, the middle along the other.
  const cropW = srcRatio > cellRatio ? src.height * cellRatio : src.width;
  const cropH = srcRatio > cellRatio ? src.height : src.width / cellRatio;
  const cropX = (src.width - cropW) / 2;
  const cropY = (src.height - cropH) / 2;
  const sx = cropW / rect.w;
  const sy = cropH / rect.h;
  const sw = src.width;
  const s = src.data;
  const d = dst.data;
  // The horizontal sample positions are the same for every row.
  const xa = new Int32Array(rect.w);
  const xb = new Int32Array(rect.w);
  const wxs = new Float32Array(rect.w);
  for (let x = 0; x < rect.w; x++) {
    const fx = Math.min(Math.max(cropX + (x + 0.5) * sx - 0.5, 0), sw - 1);
    xa[x] = Math.floor(fx) * 4;
    xb[x] = Math.min(Math.floor(fx) + 1, sw - 1) * 4;
    wxs[x] = fx - Math.floor(fx);
  }
  for (let y = y0; y < y1; y++) {
    const fy = Math.min(Math.max(cropY + (y + 0.5) * sy - 0.5, 0), src.height - 1);
    const yA = Math.floor(fy);
    const wy = fy - yA;
    const rowA = yA * sw * 4;
    const rowB = Math.min(yA + 1, src.height - 1) * sw * 4;
    let o = ((rect.y + y) * dst.width + rect.x) * 4;
    for (let x = 0; x < rect.w; x++) {
      const wx = wxs[x];
      const a = rowA + xa[x];
      const b = rowA + xb[x];
      const c = rowB + xa[x];
      const e = rowB + xb[x];
      for (let k = 0; k < 3; k++) {
        const top = s[a + k] + (s[b + k] - s[a + k]) * wx;
        const bottom = s[c + k] + (s[e + k] - s[c + k]) * wx;
        d[o + k] = top + (bottom - top) * wy + 0.5;
      }
      d[o + 3] = 255;
      o += 4;
    }
  }
}

/**
 * A soft-edged disc (or ring when `ring` > 0: its thickness as a fraction of r) blended over the
 * image with `alpha`. Touches only its bounding box.
 */
export function blendDisc(img: RgbaImage, cx: number, cy: number, r: number, rgb: Rgb, alpha: number, ring = 0): void {
  const x0 = Math.max(0, Math.floor(cx - r - 2));
  const x1 = Math.min(img.width, Math.ceil(cx + r + 2));
  const y0 = Math.max(0, Math.floor(cy - r - 2));
  const y1 = Math.min(img.height, Math.ceil(cy + r + 2));
  const d = img.data;
  const inner = ring > 0 ? r * (1 - ring) : -1;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const dist = Math.sqrt((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2);
      // One pixel of anti-aliasing at each edge.
      let cover = Math.min(1, Math.max(0, r - dist + 0.5));
      if (inner >= 0) cover = Math.min(cover, Math.min(1, Math.max(0, dist - inner + 0.5)));
      if (cover <= 0) continue;
      const a = alpha * cover;
      const o = (y * img.width + x) * 4;
      d[o] += (rgb[0] - d[o]) * a;
      d[o + 1] += (rgb[1] - d[o + 1]) * a;
      d[o + 2] += (rgb[2] - d[o + 2]) * a;
    }
  }
}
