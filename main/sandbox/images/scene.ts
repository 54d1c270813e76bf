/**
 * A generated picture: a landscape whose colours come from the prompt's words (palette.ts) and
 * whose layout comes from the request's seed: a graded sky, a sun with a glow, clouds, three
 * layers of hills with aerial perspective, trees on the nearest ridge, and a fine grain so it
 * reads as a picture rather than flat fills. About 15-25 ns per pixel, drawn in bands (raster.ts).
 */
import type { RgbaImage } from '../media/image-codec';
import { Rng } from '../generate/rng';
import { mix, promptPalette, type Rgb } from './palette';
import { blendDisc, inBands } from './raster';

const NIGHT_WORDS = /\b(night|space|dark|midnight|stars?|moon)\b/i;

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const clamp = (v: number): number => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));

/** An opaque RGBA pixel as the Uint32 that stores it on this machine. */
function pack(c: Rgb, grain: number): number {
  const r = clamp(c[0] + grain);
  const g = clamp(c[1] + grain);
  const b = clamp(c[2] + grain);
  return (LITTLE_ENDIAN ? (255 << 24) | (b << 16) | (g << 8) | r : (r << 24) | (g << 16) | (b << 8) | 255) >>> 0;
}

interface Layer {
  top: Float32Array;
  colour: Rgb;
}

/** Renders the scene for `prompt` with `seed` at width x height; RGBA. */
export async function renderScene(prompt: string, seed: number, width: number, height: number, signal?: AbortSignal): Promise<RgbaImage> {
  const rng = new Rng(seed);
  const palette = promptPalette(prompt, 4);
  // Each image of a request uses the palette in another order, so n images differ in colour too.
  const shift = rng.int(0, 3);
  const p = [0, 1, 2, 3].map((i) => palette[(i + shift) % 4]);
  const night = NIGHT_WORDS.test(prompt);
  const skyTop = mix(p[0], night ? [5, 5, 20] : [30, 40, 80], night ? 0.7 : 0.35 + rng.next() * 0.2);
  const horizon = mix(p[1], night ? [40, 40, 70] : [255, 255, 255], night ? 0.4 : 0.35);
  const horizonY = height * (0.5 + rng.next() * 0.18);

  const layers: Layer[] = [0, 1, 2].map((l) => {
    const base = horizonY + l * (height - horizonY) * 0.28;
    const amp = height * (0.07 - l * 0.015);
    const f = [1 + rng.next() * 1.5, 3 + rng.next() * 3, 9 + rng.next() * 7].map((c) => (2 * Math.PI * c) / width);
    const ph = [rng.next(), rng.next(), rng.next()].map((v) => v * 2 * Math.PI);
    const top = new Float32Array(width);
    for (let x = 0; x < width; x++) {
      top[x] = base - amp * (0.6 * Math.sin(x * f[0] + ph[0]) + 0.3 * Math.sin(x * f[1] + ph[1]) + 0.1 * Math.sin(x * f[2] + ph[2]));
    }
    const ground = mix(p[3], [0, 0, 0], 0.2 + 0.22 * l);
    return { top, colour: mix(ground, horizon, 0.45 - 0.18 * l) };
  });

  const img: RgbaImage = { width, height, data: new Uint8Array(width * height * 4) };
  // Whole pixels are written as one 32-bit store: per row, each of the four fills (sky, three
  // hills, darker further down each) is packed once for each of 8 grain levels.
  const px = new Uint32Array(img.data.buffer);
  const packed = new Uint32Array(4 * 8);
  const tops = layers.map((l) => l.top);
  const bases = tops.map((top) => top.reduce((a, b) => Math.min(a, b), Infinity));
  let noise = seed | 1;
  await inBands(
    width,
    height,
    (y0, y1) => {
      for (let y = y0; y < y1; y++) {
        const t = Math.min(1, y / horizonY);
        const fills: Rgb[] = [mix(skyTop, horizon, t * t)];
        for (let l = 0; l < 3; l++) {
          // Darker further below the layer's highest point: a cheap sense of depth.
          const shade = 1 - Math.min(0.35, (Math.max(0, y - bases[l]) / height) * 1.2);
          const c = layers[l].colour;
          fills.push([c[0] * shade, c[1] * shade, c[2] * shade]);
        }
        for (let f = 0; f < 4; f++) for (let g = 0; g < 8; g++) packed[f * 8 + g] = pack(fills[f], g - 4);
        const t0 = tops[0];
        const t1 = tops[1];
        const t2 = tops[2];
        let o = y * width;
        for (let x = 0; x < width; x++) {
          const f = y >= t2[x] ? 3 : y >= t1[x] ? 2 : y >= t0[x] ? 1 : 0;
          // xorshift grain, -4..+3 levels.
          noise ^= noise << 13;
          noise ^= noise >>> 17;
          noise ^= noise << 5;
          px[o++] = packed[f * 8 + (noise & 7)];
        }
      }
    },
    signal,
  );
  const d = img.data;

  // The sun (or moon) with a glow, only where the sky shows.
  const r = Math.min(width, height) * (0.06 + rng.next() * 0.06);
  const cx = width * (0.15 + rng.next() * 0.7);
  const cy = horizonY * (0.25 + rng.next() * 0.45);
  const sun = night ? ([235, 235, 220] as Rgb) : mix(p[2], [255, 240, 200], 0.55);
  const far = layers[0].top;
  await inBands(
    width,
    height,
    (y0, y1) => {
      const ys = Math.max(y0, Math.floor(cy - r * 2.4));
      const ye = Math.min(y1, Math.ceil(cy + r * 2.4));
      const xs = Math.max(0, Math.floor(cx - r * 2.4));
      const xe = Math.min(width, Math.ceil(cx + r * 2.4));
      for (let y = ys; y < ye; y++) {
        for (let x = xs; x < xe; x++) {
          if (y >= far[x]) continue;
          const dist = Math.sqrt((x - cx) ** 2 + (y - cy) ** 2);
          const a = dist <= r ? 1 : Math.max(0, 1 - (dist - r) / (1.4 * r)) ** 2 * 0.6;
          if (a <= 0) continue;
          const o = (y * width + x) * 4;
          d[o] += (sun[0] - d[o]) * a;
          d[o + 1] += (sun[1] - d[o + 1]) * a;
          d[o + 2] += (sun[2] - d[o + 2]) * a;
        }
      }
    },
    signal,
  );

  // Clouds: clusters of soft discs in the upper sky.
  const cloud: Rgb = night ? [60, 60, 90] : [250, 250, 252];
  for (let i = rng.int(1, 4); i > 0; i--) {
    const x = width * rng.next();
    const y = horizonY * (0.1 + rng.next() * 0.35);
    const s = Math.min(width, height) * (0.03 + rng.next() * 0.03);
    for (let k = 0; k < 5; k++) blendDisc(img, x + (k - 2) * s * 0.9, y + (k % 2 === 0 ? 0 : -s * 0.5), s * (k === 2 ? 1.3 : 1), cloud, 0.45);
    await inBands(1, 1, () => undefined);
  }

  // Trees on the nearest ridge: dark triangles.
  const near = layers[2].top;
  const treeColour = mix(p[3], [0, 0, 0], 0.55);
  for (let i = rng.int(2, 6); i > 0; i--) {
    const tx = Math.floor(width * (0.05 + rng.next() * 0.9));
    const th = height * (0.06 + rng.next() * 0.08);
    const base = near[tx] + th * 0.15;
    const half = th * 0.3;
    for (let y = Math.max(0, Math.floor(base - th)); y < Math.min(height, base); y++) {
      const spread = (half * (y - (base - th))) / th;
      for (let x = Math.max(0, Math.floor(tx - spread)); x < Math.min(width, tx + spread); x++) {
        const o = (y * width + x) * 4;
        d[o] = treeColour[0];
        d[o + 1] = treeColour[1];
        d[o + 2] = treeColour[2];
      }
    }
  }
  return img;
}
