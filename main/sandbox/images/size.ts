/**
 * Pixel sizes of produced images: the long side is 1024 (`1k`) or 2048 (`2k`); the short side
 * follows the aspect ratio, rounded to a multiple of 8 (what encoders and players like). `auto`
 * means 1:1 for a generation and the (first) input's own ratio for an edit.
 */
import type { ImageAspectRatio, ImageResolution } from '../../../shared/wire/images';

export const LONG_SIDE: Record<ImageResolution, number> = { '1k': 1024, '2k': 2048 };

/** Width over height of a ratio like `19.5:9`. */
export function ratioValue(ratio: Exclude<ImageAspectRatio, 'auto'>): number {
  const [w, h] = ratio.split(':').map(Number);
  return w / h;
}

/** The output size for a width/height ratio (e.g. 16/9) at a resolution. */
export function sizeForRatio(widthOverHeight: number, resolution: ImageResolution): { width: number; height: number } {
  const long = LONG_SIDE[resolution];
  const short = (r: number) => Math.max(8, Math.round((long * r) / 8) * 8);
  return widthOverHeight >= 1 ? { width: long, height: short(1 / widthOverHeight) } : { width: short(widthOverHeight), height: long };
}

/** The output size of a request; `inputRatio` is the first input's width/height (edits). */
export function outputSize(aspect: ImageAspectRatio, resolution: ImageResolution, inputRatio?: number): { width: number; height: number } {
  if (aspect !== 'auto') return sizeForRatio(ratioValue(aspect), resolution);
  return sizeForRatio(inputRatio ?? 1, resolution);
}
