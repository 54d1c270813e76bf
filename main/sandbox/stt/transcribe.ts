/**
 * A whole recording to the Speech-to-text result (`POST /v1/stt`): each channel runs through the
 * same state machine as a stream (channel.ts, no interim results, default endpointing), and the
 * finals are gathered. With `multichannel`, each channel is transcribed on its own and the top
 * level `text`/`words` interleave them by time (wire-notes 4.1); without it, channels are mixed
 * down to one first.
 */
import { ChannelTranscriber, round2, textOf, type PartialEvent } from './channel';
import type { WordStyle, SttWord } from './words';

export interface TranscribeOptions {
  language: string | null;
  diarize: boolean;
  multichannel: boolean;
  style: WordStyle;
  vadThreshold?: number;
  /** Stops the work when the request is gone. */
  signal?: AbortSignal;
}

export interface ChannelResult {
  channel_index: number;
  text: string;
  words: SttWord[];
  duration: number;
}

export interface SttResult {
  text: string;
  language: string;
  duration: number;
  words?: SttWord[];
  channels?: ChannelResult[];
}

/** Default endpointing of the stream: the same segmentation for a file and a live feed. */
const ENDPOINTING_MS = 400;
const DEFAULT_VAD_THRESHOLD = 0.08;
/** 100 ms pieces between yields to the event loop (0.5 s of audio, ~10-25 ms of work). */
const YIELD_EVERY = 5;

/** Transcribes PCM channels (one Int16Array per channel, same length) at `sampleRate`. */
export async function transcribe(channels: readonly Int16Array[], sampleRate: number, opts: TranscribeOptions): Promise<SttResult> {
  const inputs = opts.multichannel && channels.length > 1 ? channels : [mixDown(channels)];
  const results: ChannelResult[] = [];
  for (const [index, pcm] of inputs.entries()) {
    const ch = await ChannelTranscriber.create({
      sampleRate,
      vadThreshold: opts.vadThreshold ?? DEFAULT_VAD_THRESHOLD,
      interimResults: false,
      endpointingMs: ENDPOINTING_MS,
      smartTurn: null,
      smartTurnTimeoutMs: null,
      diarize: opts.diarize,
      style: opts.style,
    });
    const finals: PartialEvent[] = [];
    // In 100 ms pieces as a stream would send them (the machine keeps no more than it needs).
    // The sandbox shares the app's main process: it yields every 0.5 s of audio (median ~34 ms
    // of work here, mostly the 16 kHz resampling and the detector), so a long file never holds
    // the event loop for long.
    const step = Math.max(1, Math.round(sampleRate / 10));
    for (let at = 0, n = 0; at < pcm.length; at += step, n++) {
      if (n > 0 && n % YIELD_EVERY === 0) {
        await new Promise((resolve) => setImmediate(resolve));
        if (opts.signal?.aborted) {
          // The client went away: stop, and free the detector.
          ch.dispose();
          throw opts.signal.reason;
        }
      }
      finals.push(...ch.push(pcm.subarray(at, at + step)));
    }
    const done = ch.done();
    const words = [...finals.flatMap((e) => e.words), ...done.words];
    results.push({ channel_index: index, text: textOf(words), words, duration: done.duration });
  }
  const duration = round2((channels[0]?.length ?? 0) / sampleRate);
  const merged = results.flatMap((r) => r.words).sort((a, b) => a.start - b.start);
  const result: SttResult = { text: textOf(merged), language: opts.language ?? 'en', duration };
  if (merged.length > 0) result.words = merged;
  if (opts.multichannel && channels.length > 1) result.channels = results;
  return result;
}

/** The average of the channels (one channel passes through). */
export function mixDown(channels: readonly Int16Array[]): Int16Array {
  if (channels.length === 1) return channels[0];
  const n = channels[0]?.length ?? 0;
  const out = new Int16Array(n);
  for (let i = 0; i < n; i++) {
    let sum = 0;
    for (const ch of channels) sum += ch[i];
    out[i] = Math.round(sum / channels.length);
  }
  return out;
}
