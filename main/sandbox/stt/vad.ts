/**
 * Voice activity: WebRTC's VAD (libfvad compiled to WebAssembly, `@echogarden/fvad-wasm`), one
 * kept instance per channel of a stream (it has state across frames), fed 10 ms frames at 16 kHz.
 * Any input rate is first brought to 16 kHz by a kept resampler (shared/audio). Each frame gets a speech probability (the share of
 * voiced frames in the last 50 ms, a short hangover that bridges plosives) compared with
 * `vad_threshold` (0 disables the gate: every frame counts as speech).
 */
import fvad from '@echogarden/fvad-wasm';
import { Resampler } from '../../../shared/audio';

export const VAD_RATE = 16_000;
/** One decision per 10 ms. */
export const FRAME_MS = 10;
export const FRAME_SAMPLES = (VAD_RATE * FRAME_MS) / 1000;
/** Frames averaged into the speech probability. */
const WINDOW_FRAMES = 5;
/** Below this RMS (about -54 dBFS) a frame is silence whatever the detector says (line noise). */
const ENERGY_FLOOR = 65;

interface FvadModule {
  _fvad_new(): number;
  _fvad_free(handle: number): void;
  _fvad_set_mode(handle: number, mode: number): number;
  _fvad_set_sample_rate(handle: number, rate: number): number;
  _fvad_process(handle: number, ptr: number, samples: number): number;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  HEAP16: Int16Array;
}

let loading: Promise<FvadModule> | null = null;
function loadFvad(): Promise<FvadModule> {
  loading ??= (fvad as unknown as () => Promise<FvadModule>)();
  return loading;
}

/**
 * One WebRTC VAD instance (it has state across frames) deciding 10 ms frames at 16 kHz: the
 * part the STT gate and the realtime turn detector share. Call dispose() (it frees WASM memory).
 */
export class FrameVoicing {
  private readonly ptr: number;
  private readonly handle: number;
  private disposed = false;

  private constructor(private readonly mod: FvadModule) {
    this.handle = mod._fvad_new();
    if (!this.handle) throw new Error('The voice activity detector could not be created (out of WebAssembly memory).');
    // Mode 3 ("very aggressive"): fewest false positives on room and line noise.
    mod._fvad_set_mode(this.handle, 3);
    mod._fvad_set_sample_rate(this.handle, VAD_RATE);
    this.ptr = mod._malloc(FRAME_SAMPLES * 2);
  }

  /** The WebAssembly module is compiled once per process; instances are cheap. */
  static async create(): Promise<FrameVoicing> {
    return new FrameVoicing(await loadFvad());
  }

  /** Whether the detector hears a voice in these FRAME_SAMPLES samples. */
  voiced(samples: Int16Array): boolean {
    // HEAP16 is re-read each time: the WebAssembly memory may have grown and replaced it.
    this.mod.HEAP16.set(samples, this.ptr >> 1);
    return this.mod._fvad_process(this.handle, this.ptr, FRAME_SAMPLES) === 1;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.mod._free(this.ptr);
    this.mod._fvad_free(this.handle);
  }
}

/** The root-mean-square of a frame's samples. */
export function frameRms(samples: Int16Array): number {
  let sum = 0;
  for (const s of samples) sum += s * s;
  return Math.sqrt(sum / samples.length);
}

/** One analysed 10 ms frame. */
export interface VadFrame {
  /** The frame's 16 kHz samples (a copy). */
  samples: Int16Array;
  /** 0..1: share of the detector's voiced decisions over the last 50 ms. */
  probability: number;
  speech: boolean;
  rms: number;
}

/** A kept detector for one channel. Call dispose() when the stream ends (it frees WASM memory). */
export class Vad {
  /** Null at 16 kHz already. */
  private readonly resampler: Resampler | null;
  private pending = new Int16Array(0);
  private readonly recent: number[] = [];
  private disposed = false;

  private constructor(
    private readonly voicing: FrameVoicing,
    inRate: number,
    private readonly threshold: number,
  ) {
    this.resampler = inRate === VAD_RATE ? null : new Resampler(inRate, VAD_RATE);
  }

  static async create(inRate: number, threshold: number): Promise<Vad> {
    return new Vad(await FrameVoicing.create(), inRate, threshold);
  }

  /** Feeds PCM at the input rate; returns the whole 10 ms frames it completed. */
  push(pcm: Int16Array): VadFrame[] {
    if (this.disposed) throw new Error('This voice activity detector was disposed.');
    const resampled = this.resampler ? this.resampler.push(pcm) : pcm;
    const all = new Int16Array(this.pending.length + resampled.length);
    all.set(this.pending);
    all.set(resampled, this.pending.length);
    const frames: VadFrame[] = [];
    let at = 0;
    for (; at + FRAME_SAMPLES <= all.length; at += FRAME_SAMPLES) frames.push(this.frame(all.slice(at, at + FRAME_SAMPLES)));
    this.pending = all.slice(at);
    return frames;
  }

  private frame(samples: Int16Array): VadFrame {
    const rms = frameRms(samples);
    const voiced = rms >= ENERGY_FLOOR && this.voicing.voiced(samples) ? 1 : 0;
    this.recent.push(voiced);
    if (this.recent.length > WINDOW_FRAMES) this.recent.shift();
    const probability = this.recent.reduce((a, b) => a + b, 0) / WINDOW_FRAMES;
    const speech = this.threshold === 0 || (probability > 0 && probability >= this.threshold);
    return { samples, probability, speech, rms };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.voicing.dispose();
  }
}
