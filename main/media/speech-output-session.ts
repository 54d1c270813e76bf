/**
 * The `speech-output` media session kind: synthesised speech played through an output device
 * from the media process (naudiodon loads only here), so the audio never waits for main.
 *
 * Main opens the session with the request's codec and rate and the device the user chose, then
 * sends the audio as control messages as it has it — REST's whole file at once, or each
 * `audio.delta` of the WebSocket the moment it arrives — and `end` after the last. Each piece is
 * decoded here (speech-decoder.ts) and queued on main/audio's `Playback`, which was opened before
 * any audio came so the first delta goes straight to the device. `flush` (the user's Stop) drops
 * what is queued at once and answers the milliseconds actually heard; the session then ends.
 *
 * Up to main: `opened` (device, rate), `first-write` (when the first audio arrived here and when
 * its first sample was written to the device, on this process's monotonic clock), `progress`
 * (ms heard, about 10 times a second, for the page's clock), `done` (ms heard, underruns, whether
 * it was stopped), `flushed` (when Stop flushed the device, also on CLOCK_MONOTONIC, and the ms heard
 * it answered). The `paced` backend is the timer-driven device of main/audio (tests and
 * benchmarks); it reports `silence` when the first silent period plays after a flush.
 */
import { z } from 'zod';
import type { Reply } from '../../shared/contract/protocol';
import { TTS_CODECS } from '../../shared/wire/tts';
import { createNaudiodonBackend } from '../audio/naudiodon-backend';
import { createPacedBackend } from '../audio/paced-backend';
import { INTERRUPTIBLE_OUTPUT, Playback } from '../audio/playback';
import type { AudioBackend } from '../audio/types';
import { speechDecoder } from './speech-decoder';
import { defineKind } from './session-kinds';

/** Base64 of one piece of audio: 16 MiB (the event socket's frame bound) as base64. */
const MAX_PIECE_CHARS = Math.ceil((16 * 1024 * 1024) / 3) * 4;
const PROGRESS_MS = 100;
/** Audio resampled and queued per turn of the event loop (more than the jitter buffer's 60 ms target). */
const SLICE_MS = 100;
/** After a flush: long enough for the device's queue to play out (and the paced device's `silence`). */
const SETTLE_MS = 250;

export const SpeechOutputOptionsSchema = z
  .object({
    codec: z.enum(TTS_CODECS),
    sampleRate: z.number().int().min(8000).max(48000),
    /** A device id from `audio.devices` (kind output); absent or null: the default output. */
    device: z.string().min(1).max(300).nullable().optional(),
    /** `paced`: main/audio's timer-driven device (tests, benchmarks). */
    backend: z.enum(['native', 'paced']).default('native'),
  })
  .strict();
export type SpeechOutputOptions = z.input<typeof SpeechOutputOptionsSchema>;

export const SpeechOutputControlSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('audio'), data: z.string().max(MAX_PIECE_CHARS) }).strict(),
  z.object({ type: z.literal('end') }).strict(),
  z.object({ type: z.literal('flush') }).strict(),
]);

export interface SpeechOutputDone {
  playedMs: number;
  underruns: number;
  stopped: boolean;
}

async function backendFor(kind: 'native' | 'paced', onSilence: (at: number) => void): Promise<AudioBackend> {
  if (kind === 'paced') {
    // Modelled on naudiodon's output: 20 ms periods, two queued, nothing taken back on flush.
    return createPacedBackend({
      outputCanDiscard: false,
      outputs: [{ name: 'paced', sampleRate: 48000, channels: 2, onPlayed: (pcm, at) => (pcm.some((s) => s !== 0) ? undefined : onSilence(at)) }],
    });
  }
  const native = await createNaudiodonBackend();
  if (!native.ok) throw new Error(native.error.message);
  return native.value;
}

export const speechOutputKind = defineKind({
  kind: 'speech-output',
  options: SpeechOutputOptionsSchema,
  async start(ctx, options) {
    // Playback's times are performance.now(); the session reports on the process's clock.
    const perfToClock = ctx.now() - performance.now();
    let flushedAt: number | null = null;
    const backend = await backendFor(options.backend, (at) => {
      if (flushedAt === null) return;
      ctx.event('silence', { flushedAt, silentAt: at + perfToClock });
      flushedAt = null;
    });
    const opened = Playback.open({
      backend,
      deviceId: options.device ?? null,
      sourceRate: options.sampleRate,
      // Stop must fall silent quickly: the interruptible settings (2 ms writes, one queued).
      ...INTERRUPTIBLE_OUTPUT,
      onError: (error) => finish(false, { code: 'unsupported', message: `The output device stopped: ${error.message}` }),
    });
    if (!opened.ok) throw new Error(opened.error.message);
    const playback = opened.value;
    const decoder = speechDecoder(options.codec, options.sampleRate);
    ctx.event('opened', { device: playback.stats.device.name, deviceId: playback.stats.device.id, deviceRate: playback.stats.deviceRate });

    let firstArrivedAt: number | null = null;
    let firstReported = false;
    let ended = false;
    /** `end`'s audio is queued: the session finishes once it has played out. */
    let endQueued = false;
    /** Stopped by a flush: no more audio is taken; the device plays silence until the session ends. */
    let stopping = false;
    let finished = false;
    /** Pieces are decoded in arrival order (the mp3 decoder is asynchronous). */
    let decoding: Promise<void> = Promise.resolve();

    const finish = (stopped: boolean, error?: { code: 'unsupported' | 'internal'; message: string }): void => {
      if (finished) return;
      finished = true;
      clearInterval(ticker);
      const s = playback.stats;
      ctx.event('done', { playedMs: Math.round(s.playedMs * 10) / 10, underruns: s.underruns, stopped } satisfies SpeechOutputDone);
      decoder.dispose();
      void playback.dispose().then(() => ctx.end(error));
    };

    let lastProgress = -1;
    const ticker = setInterval(() => {
      const s = playback.stats;
      if (!firstReported && s.firstAudioWrittenAt !== null) {
        firstReported = true;
        ctx.event('first-write', { arrivedAt: firstArrivedAt, writtenAt: s.firstAudioWrittenAt + perfToClock, framesBeforeFirstAudio: s.framesBeforeFirstAudio });
      }
      const played = Math.round(s.playedMs);
      if (played !== lastProgress) {
        lastProgress = played;
        ctx.event('progress', { playedMs: played });
      } else if (endQueued && !stopping && s.state === 'idle') {
        // Played out: nothing buffered and the ms heard stopped moving (the device's queue is empty).
        finish(false);
      }
    }, PROGRESS_MS);

    const fail = (message: string): Reply<unknown> => ({ ok: false, error: { code: 'invalid_input', message } });

    return {
      control(raw: unknown): Reply<unknown> | Promise<Reply<unknown>> {
        const parsed = SpeechOutputControlSchema.safeParse(raw);
        if (!parsed.success) return fail(`A speech-output control message is { type: 'audio', data }, { type: 'end' } or { type: 'flush' }: ${parsed.error.issues[0]?.message ?? 'invalid'}.`);
        if (finished || stopping) return fail('The speech output has already ended.');
        const message = parsed.data;
        if (message.type === 'audio') {
          if (ended) return fail('Audio came after the end of the speech.');
          firstArrivedAt ??= ctx.now();
          const bytes = Buffer.from(message.data, 'base64');
          decoding = decoding.then(async () => {
            if (finished || stopping) return;
            try {
              const pcm = await decoder.push(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
              // A piece can hold seconds of audio (REST's whole file, the first sentence): it is
              // resampled and queued a slice at a time, yielding between, so the device gets its
              // first period after one slice rather than after the whole piece.
              const slice = Math.round(options.sampleRate * (SLICE_MS / 1000));
              for (let at = 0; at < pcm.length && !finished && !stopping; at += slice) {
                playback.enqueue(pcm.subarray(at, at + slice));
                if (at + slice < pcm.length) await new Promise((resolve) => setImmediate(resolve));
              }
            } catch (error) {
              finish(true, { code: 'unsupported', message: `The speech audio could not be decoded: ${(error as Error).message}` });
            }
          });
          return { ok: true, value: null };
        }
        if (message.type === 'end') {
          ended = true;
          decoding = decoding.then(() => {
            if (finished || stopping) return;
            playback.enqueue(decoder.end());
            playback.end();
            endQueued = true;
          });
          return { ok: true, value: null };
        }
        // flush: the user's Stop. What is still being decoded is dropped with the rest; the device
        // keeps playing silence a moment so what it could not take back is heard to its end.
        flushedAt = ctx.now();
        // CLOCK_MONOTONIC as well: a benchmark's card (test/audio/fifo-sink.py) logs on that clock.
        const monotonicNs = process.hrtime.bigint().toString();
        stopping = true;
        const playedMs = Math.round(playback.flush() * 10) / 10;
        ctx.event('flushed', { flushedAt, monotonicNs, playedMs });
        setTimeout(() => finish(true), SETTLE_MS);
        return { ok: true, value: { playedMs } };
      },
      async stop() {
        if (finished) return;
        playback.flush();
        finish(true);
      },
    };
  },
});
