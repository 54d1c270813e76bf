/**
 * An edited picture that visibly comes from its inputs: the input scaled to cover the output (a
 * multi-reference edit: a collage, one strip per reference in order, side by side for landscape
 * and square outputs, stacked for portrait ones), then a deterministic change driven by the
 * prompt: a tint towards the prompt's first colour, a vignette, and a few translucent rings and
 * discs in its other colours. The input's colours stay dominant (the tint is a quarter), so a red
 * input gives a reddish edit.
 */
import type { RgbaImage } from '../media/image-codec';
import { Rng } from '../generate/rng';
import { promptPalette } from './palette';
import { blendDisc, drawCoverRows, inBands } from './raster';

const TINT = 0.25;
const VIGNETTE = 0.3;

/** The cells of a collage of `count` references on a width x height canvas. */
export function collageCells(count: number, width: number, height: number): Array<{ x: number; y: number; w: number; h: number }> {
  const across = width >= height;
  const long = across ? width : height;
  return Array.from({ length: count }, (_, i) => {
    const start = Math.round((i * long) / count);
    const size = Math.round(((i + 1) * long) / count) - start;
    return across ? { x: start, y: 0, w: size, h: height } : { x: 0, y: start, w: width, h: size };
  });
}

export async function renderEdit(inputs: readonly RgbaImage[], prompt: string, seed: number, width: number, height: number, signal?: AbortSignal): Promise<RgbaImage> {
  const img: RgbaImage = { width, height, data: new Uint8Array(width * height * 4) };
  const cells = collageCells(inputs.length, width, height);
  for (let i = 0; i < inputs.length; i++) {
    const cell = cells[i];
    await inBands(cell.w, cell.h, (y0, y1) => drawCoverRows(img, cell, inputs[i], y0, y1), signal);
  }

  const rng = new Rng(seed);
  const palette = promptPalette(prompt, 4);
  const tint = palette[0];
  const d = img.data;
  await inBands(
    width,
    height,
    (y0, y1) => {
      for (let y = y0; y < y1; y++) {
        const dy = (2 * y) / height - 1;
        let o = y * width * 4;
        for (let x = 0; x < width; x++) {
          const dx = (2 * x) / width - 1;
          const v = 1 - VIGNETTE * Math.min(1, Math.max(0, (dx * dx + dy * dy) / 2 - 0.15) * 1.6);
          d[o] = (d[o] + (tint[0] - d[o]) * TINT) * v;
          d[o + 1] = (d[o + 1] + (tint[1] - d[o + 1]) * TINT) * v;
          d[o + 2] = (d[o + 2] + (tint[2] - d[o + 2]) * TINT) * v;
          o += 4;
        }
      }
    },
    signal,
  );

  // Seams between collage cells, in the tint colour.
  const seam = Math.max(2, Math.round(Math.min(width, height) / 256));
  for (const cell of cells.slice(1)) {
    for (let y = cell.y; y < (cell.w === width ? cell.y + seam : height); y++) {
      for (let x = cell.x; x < (cell.w === width ? width : cell.x + seam); x++) {
        const o = (y * width + x) * 4;
        d[o] = tint[0];
        d[o + 1] = tint[1];
        d[o + 2] = tint[2];
      }
    }
  }

  const m = Math.min(width, height);
  for (let i = rng.int(3, 5); i > 0; i--) {
    const colour = palette[1 + rng.int(0, 2)];
    const r = m * (0.04 + rng.next() * 0.07);
    blendDisc(img, width * rng.next(), height * rng.next(), r, colour, 0.4, rng.chance(0.5) ? 0.25 : 0);
    await inBands(1, 1, () => undefined);
  }
  return img;
}
