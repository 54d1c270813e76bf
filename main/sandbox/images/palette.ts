/**
 * Colours from a prompt's words, so "a red fox under a blue sky" looks red and blue: named colours
 * and a few scene words map to fixed colours; other words get a colour from a hash of the word
 * (stable, so the same word always tints the same way).
 */
import { hashSeed } from '../generate/rng';

export type Rgb = [number, number, number];

const NAMED: Record<string, Rgb> = {
  red: [214, 40, 40], crimson: [180, 20, 50], scarlet: [230, 36, 20], orange: [245, 140, 30], amber: [255, 176, 0],
  yellow: [245, 215, 50], gold: [230, 180, 40], golden: [230, 180, 40], green: [60, 160, 70], emerald: [20, 150, 100],
  lime: [160, 220, 60], olive: [120, 130, 50], teal: [20, 140, 140], cyan: [40, 200, 220], turquoise: [60, 210, 200],
  blue: [40, 90, 210], azure: [60, 150, 240], navy: [20, 30, 90], indigo: [70, 40, 150], purple: [130, 50, 170],
  violet: [150, 90, 210], magenta: [210, 40, 160], pink: [240, 130, 180], rose: [230, 100, 130], brown: [120, 75, 40],
  beige: [220, 200, 160], tan: [200, 160, 110], black: [20, 20, 24], white: [240, 240, 236], grey: [128, 128, 132],
  gray: [128, 128, 132], silver: [190, 195, 200],
  // Scene words, so unnamed colours still come out plausibly.
  sunset: [250, 120, 70], sunrise: [255, 170, 100], dawn: [250, 190, 160], dusk: [120, 70, 130], night: [15, 20, 60],
  ocean: [20, 100, 170], sea: [30, 110, 170], water: [50, 130, 190], lake: [50, 120, 160], river: [60, 130, 170],
  sky: [120, 180, 235], cloud: [225, 230, 238], clouds: [225, 230, 238], snow: [245, 248, 252], ice: [190, 225, 245],
  forest: [30, 100, 50], tree: [50, 120, 50], trees: [50, 120, 50], grass: [90, 170, 60], leaf: [80, 160, 60],
  desert: [225, 185, 120], sand: [225, 200, 150], beach: [235, 210, 160], mountain: [110, 110, 125], mountains: [110, 110, 125],
  fire: [240, 90, 20], flame: [250, 120, 30], lava: [220, 60, 20], sun: [255, 200, 60], moon: [225, 225, 210],
  space: [10, 10, 35], city: [90, 95, 110], neon: [255, 40, 200], cat: [200, 140, 80], fox: [220, 110, 40],
  dog: [170, 120, 80], autumn: [200, 110, 40], spring: [150, 210, 120], winter: [200, 220, 240],
};

const STOP = new Set(['a', 'an', 'the', 'of', 'in', 'on', 'at', 'and', 'with', 'to', 'under', 'over', 'by', 'for', 'from', 'is', 'it', 'its', 'as', 'into', 'image', 'picture', 'photo']);

/** HSL (h in [0, 1)) to RGB. */
function hsl(h: number, s: number, l: number): Rgb {
  const f = (n: number) => {
    const k = (n + h * 12) % 12;
    const a = s * Math.min(l, 1 - l);
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

/** The prompt's words in order (lower case, letters only), without stop words and `<IMAGE_k>` references. */
export function promptWords(prompt: string): string[] {
  return prompt
    .replace(/<IMAGE_\d+>/g, ' ')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length > 1 && !STOP.has(w));
}

/**
 * Up to `count` colours: named and scene words first (in prompt order), then hashed colours of the
 * remaining words, then of the whole prompt, so there are always `count`.
 */
export function promptPalette(prompt: string, count = 4): Rgb[] {
  const words = promptWords(prompt);
  const out: Rgb[] = [];
  for (const w of words) if (NAMED[w] && out.length < count) out.push(NAMED[w]);
  for (const w of words) {
    if (out.length >= count) break;
    if (!NAMED[w]) out.push(hsl((hashSeed('word', w) % 360) / 360, 0.55, 0.5));
  }
  for (let i = 0; out.length < count; i++) out.push(hsl((hashSeed('prompt', prompt, String(i)) % 360) / 360, 0.5, 0.35 + 0.1 * (i % 3)));
  return out;
}

/** `a` mixed with `b` by `t` (0 = a). */
export function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}
