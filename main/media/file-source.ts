/**
 * A WAV file as a live microphone, for testing a live session without a device (a stereo file
 * with a different voice on each side tests two-channel transcription): its PCM16 is brought to
 * the session's rate and channels (mixed to mono, or a mono file heard on both sides), cut into
 * 20 ms frames and delivered paced — frame k at start + k·20 ms / `speed`, against the monotonic
 * clock, so a late tick does not slow the rest down. `onEnd` is called once the last frame went.
 */
import { readFile } from 'node:fs/promises';
import { FRAME_MS, FrameChunker } from '../../shared/audio/frames';
import { mixToMono } from '../../shared/audio/pcm';
import { Resampler } from '../../shared/audio/resampler';
import { parseWav } from '../../shared/audio/wav';

export interface FileSource {
  /** 20 ms frames in the file. */
  readonly frames: number;
  dispose(): void;
}

/** The file's samples at `channels` channels (interleaved). */
function toChannels(samples: Int16Array, from: number, to: number): Int16Array {
  if (from === to) return samples;
  const mono = from === 1 ? samples : mixToMono(samples, from);
  if (to === 1) return mono;
  const out = new Int16Array(mono.length * to);
  for (let i = 0; i < mono.length; i++) for (let c = 0; c < to; c++) out[i * to + c] = mono[i]!;
  return out;
}

export async function fileSource(
  path: string,
  options: { sampleRate: number; channels: number; speed: number; now: () => number },
  onPcm: (bytes: Uint8Array, at: number) => void,
  onEnd: () => void,
): Promise<FileSource> {
  const wav = parseWav(await readFile(path));
  if (!wav.ok) throw new Error(`The file source cannot be read as a 16-bit WAV: ${wav.error.message}`);
  const { sampleRate, channels } = wav.value;
  const samples = toChannels(wav.value.samples, channels, options.channels);
  const resampler = new Resampler(sampleRate, options.sampleRate, options.channels);
  const chunker = new FrameChunker(options.sampleRate, options.channels, FRAME_MS);
  const frames = chunker.push(resampler.push(samples));
  frames.push(...chunker.push(resampler.flush()));
  const last = chunker.flush();
  if (last) frames.push(last);

  const interval = FRAME_MS / options.speed;
  const start = options.now();
  let next = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const tick = (): void => {
    timer = null;
    while (next < frames.length && start + next * interval <= options.now()) {
      const f = frames[next++]!;
      onPcm(new Uint8Array(f.buffer, f.byteOffset, f.byteLength), options.now());
    }
    if (next < frames.length) timer = setTimeout(tick, Math.max(1, interval / 2));
    else onEnd();
  };
  // First frames on the next turn: the caller has its handle before `onEnd` can run (an empty file).
  timer = setTimeout(tick, 0);
  return {
    frames: frames.length,
    dispose: () => {
      if (timer) clearTimeout(timer);
      timer = null;
      next = frames.length;
    },
  };
}
