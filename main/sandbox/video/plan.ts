/**
 * From a checked request to a `ScenePlan` (what the frames look like), and the figures every job
 * carries: frame rate, how long it stays pending on the sandbox clock, and what it costs.
 *
 * - Generation: colours from the prompt (colour words first, then hues from its hash), motion
 *   from a seed of the whole request; image-to-video puts the picture behind the motion;
 *   reference pictures orbit as tiles; reference voices draw waveform strips.
 * - Edit: the input's plan (for a video this sandbox made) with an edit layer; same length/size.
 * - Extension: the input's plan continued: its first frame is the input's last frame, then a new
 *   square (the prompt's colour) fades in. A foreign MP4 cannot be decoded (there is no H.264
 *   decoder here), so its plan is a synthetic scene seeded by its bytes at its size and length.
 */
import { createHash } from 'node:crypto';
import { VIDEO_LIMITS, videoPixelSize, type VideoAspectRatio, type VideoResolution } from '../../../shared/wire/videos';
import { videoCostTicks } from '../../../shared/video-pricing';
import type { PictureRef, Rgb, ScenePlan } from './frames';
import type { Mp4Info } from './mp4-info';

/**
 * Frames per second of every sandbox video. 12 keeps an 8 s 720p encode to a few seconds of one
 * core (x264 in WebAssembly, see bench/results-video-encode.json) while motion still reads as motion.
 */
export const VIDEO_FPS = 12;

/** Longest pending time, in seconds of sandbox clock. */
export const MAX_RENDER_SECONDS = 30;

const RESOLUTION_WEIGHT: Record<VideoResolution, number> = { '480p': 0.5, '720p': 1, '1080p': 1.6 };

/**
 * How long a job stays pending on the sandbox clock: 6 s plus the video's seconds times 0.5
 * (480p), 1 (720p) or 1.6 (1080p), at most 30 s. 8 s at 720p: 14 s; 1 s at 480p: 6.5 s.
 */
export function renderSeconds(duration: number, resolution: VideoResolution): number {
  return Math.min(MAX_RENDER_SECONDS, 6 + duration * RESOLUTION_WEIGHT[resolution]);
}

/** Price in USD ticks: seconds times the resolution's cents per second (shared/video-pricing.ts, as the Videos view estimates). */
export function costTicks(duration: number, resolution: VideoResolution): number {
  return videoCostTicks(duration, resolution);
}

/** The resolution class of a frame size, by its short side. */
export function resolutionOf(width: number, height: number): VideoResolution {
  const short = Math.min(width, height);
  return short <= 480 ? '480p' : short <= 720 ? '720p' : '1080p';
}

export function sha256(...parts: Array<string | Uint8Array>): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
}

function seedOf(...parts: Array<string | Uint8Array>): number {
  return parseInt(sha256(...parts).slice(0, 8), 16) >>> 0;
}

const COLOR_WORDS: Record<string, Rgb> = {
  red: [214, 40, 40],
  orange: [247, 127, 0],
  yellow: [252, 208, 40],
  gold: [212, 175, 55],
  green: [46, 160, 67],
  forest: [34, 102, 51],
  teal: [0, 128, 128],
  cyan: [0, 188, 212],
  blue: [33, 102, 220],
  ocean: [16, 84, 160],
  sky: [120, 190, 240],
  navy: [20, 30, 90],
  night: [14, 18, 48],
  purple: [128, 60, 180],
  violet: [143, 0, 255],
  pink: [240, 98, 146],
  white: [240, 240, 240],
  snow: [232, 240, 248],
  black: [20, 20, 20],
  gray: [128, 128, 128],
  grey: [128, 128, 128],
  brown: [121, 85, 61],
  sand: [216, 190, 140],
  desert: [222, 170, 110],
  fire: [230, 80, 20],
  sunset: [250, 110, 70],
};

function hueColor(seed: number, salt: number): Rgb {
  const h = ((seed >>> (salt * 3)) % 360) / 60;
  const s = 0.65;
  const l = 0.5;
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs((h % 2) - 1));
  const [r, g, b] = h < 1 ? [c, x, 0] : h < 2 ? [x, c, 0] : h < 3 ? [0, c, x] : h < 4 ? [0, x, c] : h < 5 ? [x, 0, c] : [c, 0, x];
  const m = l - c / 2;
  return [Math.round((r + m) * 255), Math.round((g + m) * 255), Math.round((b + m) * 255)];
}

/** Four colours for a prompt: the colour words it names, in order, then hues from its hash. */
export function promptColors(prompt: string): Rgb[] {
  const words = prompt.toLowerCase().match(/[a-z]+/g) ?? [];
  const named = words.map((w) => COLOR_WORDS[w]).filter((c): c is Rgb => c !== undefined);
  const seed = seedOf('colors', prompt);
  const out: Rgb[] = [];
  for (let i = 0; out.length < 4; i++) out.push(named[i] ?? hueColor(seed, i + 1));
  return out;
}

/** The first colour a prompt names (or its hash's). */
function promptColor(prompt: string): Rgb {
  return promptColors(prompt)[0];
}

export interface GenerationScene {
  prompt: string;
  aspectRatio: VideoAspectRatio;
  resolution: VideoResolution;
  duration: number;
  background: PictureRef | null;
  tiles: PictureRef[];
  voices: string[];
  /** Everything else that makes the request itself (model, ...), for the seed. */
  salt: string;
}

export function generationPlan(g: GenerationScene): ScenePlan {
  const { width, height } = videoPixelSize(g.aspectRatio, g.resolution);
  const seed = seedOf(JSON.stringify(g));
  return {
    width,
    height,
    fps: VIDEO_FPS,
    frames: g.duration * VIDEO_FPS,
    startFrame: 0,
    seed,
    colors: promptColors(g.prompt || (g.background ? g.background.key : 'sandbox')),
    background: g.background,
    tiles: g.tiles,
    voices: g.voices.map((v) => seedOf('voice', v)),
    layers: [],
  };
}

/** An input video: the plan this sandbox made it from, when it did, and what its boxes say. */
export interface InputVideo {
  /** sha256 of the bytes. */
  hash: string;
  info: Mp4Info;
  /** The plan of a video this sandbox made (found by the bytes' hash), else null. */
  plan: ScenePlan | null;
}

/**
 * The largest frame the spec's resolutions make (1080p 16:9: 1920x1080), either way round. An edit
 * or extension of a foreign MP4 is drawn at its size scaled down to fit it, so both sides and the
 * pixel rate (at most 1920 x 1080 x VIDEO_FPS) are bounded whatever the input's header says: a
 * 1 KB file claiming 65535x1080 must not cost 36 s of encoder time per second of video.
 */
export const MAX_FRAME_LONG_SIDE = 1920;
export const MAX_FRAME_SHORT_SIDE = 1080;

/** A foreign MP4's frame size: its own, scaled (keeping its shape) to fit the largest spec frame; even, at least 16. */
export function foreignFrameSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, MAX_FRAME_LONG_SIDE / Math.max(width, height), MAX_FRAME_SHORT_SIDE / Math.min(width, height));
  const even = (n: number): number => Math.max(16, Math.round(n / 2) * 2);
  return { width: even(width * scale), height: even(height * scale) };
}

/** A foreign MP4's stand-in scene: its size (fitted to the largest spec frame) and length, a seed of its bytes. */
export function foreignPlan(input: InputVideo): ScenePlan {
  const { width, height } = foreignFrameSize(input.info.width, input.info.height);
  const duration = Math.min(VIDEO_LIMITS.durationMax, Math.max(1, Math.round(input.info.durationSeconds)));
  return {
    width,
    height,
    fps: VIDEO_FPS,
    frames: duration * VIDEO_FPS,
    startFrame: 0,
    seed: seedOf('foreign', input.hash),
    colors: promptColors(input.hash),
    background: null,
    tiles: [],
    voices: [],
    layers: [],
  };
}

/** The seconds a plan lasts (whole, as the result's `duration`). */
export function planSeconds(plan: ScenePlan): number {
  return Math.max(1, Math.round(plan.frames / plan.fps));
}

export function editPlan(input: InputVideo, prompt: string): ScenePlan {
  const base = input.plan ?? foreignPlan(input);
  return {
    ...base,
    layers: [...base.layers, { kind: 'edit', seed: seedOf('edit', prompt, input.hash), color: promptColor(prompt), fromFrame: base.startFrame }],
  };
}

export function extensionPlan(input: InputVideo, prompt: string, duration: number): ScenePlan {
  const base = input.plan ?? foreignPlan(input);
  const last = base.startFrame + base.frames - 1;
  return {
    ...base,
    frames: duration * base.fps,
    startFrame: last,
    layers: [...base.layers, { kind: 'extend', seed: seedOf('extend', prompt, input.hash), color: promptColor(prompt), fromFrame: last }],
  };
}

/** The key of a plan's bytes: identical plans (identical requests) share one encode. */
export function planKey(plan: ScenePlan): string {
  return sha256('video-plan-v1', JSON.stringify(plan)).slice(0, 40);
}
