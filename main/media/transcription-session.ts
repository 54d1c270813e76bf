/**
 * The `transcription` media session kind: a live microphone to the service's WebSocket `/v1/stt`,
 * run in the media process so that neither the audio nor the socket waits for main's event loop.
 *
 * Audio comes from the page (PCM16 20 ms frames on the `mic` input stream, at the query's sample
 * rate: mono, or interleaved stereo with `multichannel` and `channels: 2`), from a native device
 * (main/audio `Capture`, resampled to that rate), or from a WAV file paced as a microphone
 * (file-source.ts, for tests; the session finishes at its end). Frames are gathered into 100 ms
 * chunks (the size the service expects per binary frame) and sent one at a time, each send
 * awaiting the socket's drain (back-pressure); while the service is behind, chunks wait in a bounded backlog whose oldest are dropped and counted, never an error.
 *
 * Up to main (for the live kind and its recording): `transcript` (each service event, already
 * masked by the event socket), `audio` (each chunk sent, base64, with its media-clock time),
 * `socket-frame` (captured frames, audio summarised), `stats` at the end. Levels go to the page as
 * `levels` frames (rms and peak dBFS, float32 pair) about 20 times a second. The key arrives in the
 * start options from main and goes nowhere but the socket's handshake.
 */
import { z } from 'zod';
import type { Reply } from '../../shared/contract/protocol';
import { LevelMeter } from '../../shared/audio/levels';
import { FrameKind } from '../../shared/media-frames/frame';
import { LIVE_MAX_CHANNELS, LIVE_OPUS_REFUSAL } from '../../shared/live-transcription';
import type { SttStreamQuery } from '../../shared/wire/stt';
import { WorkbenchFailure } from '../../shared/contract/errors';
import { ApiClient } from '../api/client';
import { toWorkbenchError } from '../api/errors';
import { openTranscriptionStream, type TranscriptEvent } from '../api/stt-stream';
import { fileSource } from './file-source';
import { nativeMicrophone } from './native-microphone';
import { defineKind } from './session-kinds';

/** 100 ms of audio per binary frame to the service (spec: "about 100 ms"). */
const CHUNK_MS = 100;
/** At most this much audio waits for a slow service; older chunks are dropped (counted). */
const BACKLOG_MS = 30_000;
/** How long a stop waits for the service's final transcript after `audio.done`. */
const DRAIN_MS = 10_000;

export const TranscriptionOptionsSchema = z
  .object({
    connection: z.object({ baseUrl: z.string().min(1).max(2000), apiKey: z.string().max(4000).nullable() }).strict(),
    /** The WebSocket query, already checked in main (sttStreamQueryProblem); checked again by the client. */
    query: z.record(z.string(), z.unknown()),
    source: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('page') }).strict(),
      z.object({ kind: z.literal('native'), device: z.union([z.string(), z.number()]).optional() }).strict(),
      /** A WAV file paced as a microphone (file-source.ts); the session finishes at its end. */
      z.object({ kind: z.literal('file'), path: z.string().min(1).max(4096), speed: z.number().min(0.5).max(20) }).strict(),
    ]),
  })
  .strict();
export type TranscriptionOptions = z.infer<typeof TranscriptionOptionsSchema>;

export const TranscriptionControlSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('finalize'), channel: z.number().int().min(0).max(7).optional() }).strict(),
  z.object({ type: z.literal('mute'), muted: z.boolean() }).strict(),
]);

export interface TranscriptionStats {
  framesIn: number;
  chunksSent: number;
  bytesSent: number;
  droppedChunks: number;
  mutedFrames: number;
  inbound?: { received: number; delivered: number; gaps: number; missing: number; outOfOrder: number; late: number };
}

/** A transcript event as plain data for main (the socket's events minus class instances). */
function plain(event: TranscriptEvent): unknown {
  return JSON.parse(JSON.stringify(event)) as unknown;
}

export const transcriptionKind = defineKind({
  kind: 'transcription',
  options: TranscriptionOptionsSchema,
  async start(ctx, options) {
    const query = options.query as SttStreamQuery;
    const sampleRate = query.sample_rate ?? 16_000;
    const channels = query.multichannel ? (query.channels ?? 0) : 1;
    if ((query.encoding ?? 'pcm') !== 'pcm') throw new Error(LIVE_OPUS_REFUSAL);
    if (channels < 1 || channels > LIVE_MAX_CHANNELS) throw new Error(`A live microphone sends mono or interleaved stereo 16-bit PCM, not ${channels} channels.`);
    const client = new ApiClient({ baseUrl: options.connection.baseUrl, apiKey: options.connection.apiKey, retry: { retries: 0, baseDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 0 } });
    const abort = new AbortController();
    const opened = await openTranscriptionStream(client, query, {
      signal: abort.signal,
      now: () => ctx.now(),
      // Binary frames are the audio main records from the `audio` events: only messages go up.
      onFrame: (frame) => {
        if (frame.kind !== 'binary') ctx.event('socket-frame', frame);
      },
    });
    // A refused key (401), a bad query (400), an unreachable service: the service's own error,
    // code, status and message, is what the page shows (a value across both processes).
    if (!opened.ok) throw new WorkbenchFailure(toWorkbenchError(opened.error));
    const stream = opened.stream;
    ctx.event('opened', { captured: opened.captured, sampleRate });

    const stats: TranscriptionStats = { framesIn: 0, chunksSent: 0, bytesSent: 0, droppedChunks: 0, mutedFrames: 0 };
    // Whole sample frames (every channel's sample) per chunk, so a chunk never splits a frame.
    const frameBytes = 2 * channels;
    const chunkBytes = ((sampleRate * CHUNK_MS) / 1000) * frameBytes;
    const backlogMax = Math.ceil(BACKLOG_MS / CHUNK_MS);
    const backlog: Array<{ bytes: Uint8Array; at: number; lastAt: number }> = [];
    let pending = new Uint8Array(chunkBytes);
    let pendingLength = 0;
    let pendingAt = 0;
    let pendingLastAt = 0;
    let muted = false;
    let ending = false;
    let sending = false;
    let pumpDone: Promise<void> = Promise.resolve();
    const levelsOut = ctx.openOutput('levels');
    const meter = new LevelMeter(sampleRate, channels, (level) => {
      const payload = new Uint8Array(8);
      const view = new DataView(payload.buffer);
      view.setFloat32(0, level.rmsDbfs);
      view.setFloat32(4, level.peakDbfs);
      levelsOut.send(FrameKind.Data, payload);
    });

    const pump = async (): Promise<void> => {
      sending = true;
      while (backlog.length > 0) {
        const chunk = backlog.shift()!;
        const sent = await stream.sendAudio(chunk.bytes);
        if (!sent.ok) {
          ctx.event('send-failed', { reason: sent.reason, message: sent.error.message });
          if (sent.reason === 'closed') break;
          continue;
        }
        stats.chunksSent++;
        stats.bytesSent += chunk.bytes.byteLength;
        // `at`/`lastAt`: its first and last frame's capture; `sentAt`: on the socket (the capture benchmark reads them).
        ctx.event('audio', { pcm: Buffer.from(chunk.bytes).toString('base64'), at: chunk.at, lastAt: chunk.lastAt, sentAt: ctx.now() });
      }
      sending = false;
    };
    const enqueue = (bytes: Uint8Array, at: number): void => {
      backlog.push({ bytes, at, lastAt: pendingLastAt });
      while (backlog.length > backlogMax) {
        backlog.shift();
        stats.droppedChunks++;
      }
      if (!sending) pumpDone = pump();
    };
    const flushPending = (): void => {
      if (pendingLength === 0) return;
      enqueue(pending.slice(0, pendingLength), pendingAt);
      pending = new Uint8Array(chunkBytes);
      pendingLength = 0;
    };
    /** One frame of PCM16, interleaved when stereo (any length): metered, gathered into chunks. */
    const onPcm = (bytes: Uint8Array, at: number): void => {
      if (ending) return;
      stats.framesIn++;
      let pcm = bytes;
      if (muted) {
        stats.mutedFrames++;
        pcm = new Uint8Array(bytes.byteLength); // silence keeps the service's audio clock going
      }
      meter.push(new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + (pcm.byteLength - (pcm.byteLength % frameBytes)))));
      let offset = 0;
      while (offset < pcm.byteLength) {
        if (pendingLength === 0) pendingAt = at;
        pendingLastAt = at;
        const take = Math.min(chunkBytes - pendingLength, pcm.byteLength - offset);
        pending.set(pcm.subarray(offset, offset + take), pendingLength);
        pendingLength += take;
        offset += take;
        if (pendingLength === chunkBytes) flushPending();
      }
    };

    const mic = ctx.openInput('mic', (frame) => onPcm(frame.payload, frame.timestamp));
    // A native device that fails mid-stream (unplugged, stalled): what was captured still goes out
    // and its final words come back, then the session ends with the device's own explanation.
    const native = options.source.kind === 'native'
      ? await nativeMicrophone(ctx, { sampleRate, device: options.source.device, channels }, onPcm, (error) => {
          if (ending) return;
          void finish().then(() => ctx.end({ code: 'unsupported', message: `${error.message.replace(/[.\s]*$/, '.')} The live transcription stopped there.` }));
        })
      : null;
    // A file finishes the session at its end: everything sent, `audio.done`, the final words, then the end.
    const file =
      options.source.kind === 'file'
        ? await fileSource(options.source.path, { sampleRate, channels, speed: options.source.speed, now: () => ctx.now() }, onPcm, () => {
            ctx.event('source-ended', {});
            void finish().then(() => ctx.end());
          })
        : null;
    if (file) ctx.event('source', { frames: file.frames });

    // The service's events, in order, up to main; its end ends the session.
    let ended = false;
    const reading = (async () => {
      for await (const event of stream.events()) {
        if (event.kind === 'end') {
          ended = true;
          ctx.event('stats', { ...stats, inbound: mic.stats() });
          if (!ending) ctx.end(event.error ? { code: event.error.kind === 'timeout' ? 'timeout' : 'network', message: event.error.message } : undefined);
          return;
        }
        ctx.event('transcript', plain(event));
      }
    })();

    /** Sends what is captured, then `audio.done`, and waits (≤ DRAIN_MS) for the final words: one run, whoever asks (stop, a lost device, a file's end). */
    let finishing: Promise<void> | null = null;
    function finish(): Promise<void> {
      return (finishing ??= drain());
    }
    async function drain(): Promise<void> {
      ending = true;
      native?.dispose();
      file?.dispose();
      if (!ended) {
        // Everything captured goes out, then `audio.done`: the service answers with its final words.
        flushPending();
        await pumpDone;
        await stream.end();
        const timer = setTimeout(() => void stream.close(), DRAIN_MS);
        await reading;
        clearTimeout(timer);
      }
      abort.abort();
      await client.dispose();
    }

    return {
      control(raw: unknown): Reply<unknown> | Promise<Reply<unknown>> {
        const parsed = TranscriptionControlSchema.safeParse(raw);
        if (!parsed.success) return { ok: false as const, error: { code: 'invalid_input' as const, message: `A transcription control message is { type: 'finalize' } or { type: 'mute', muted }: ${parsed.error.issues[0]?.message ?? 'invalid'}.` } };
        const message = parsed.data;
        if (message.type === 'mute') {
          muted = message.muted;
          ctx.event('muted', { muted });
          return { ok: true as const, value: null };
        }
        flushPending();
        return pumpDone
          .then(() => stream.finalize(message.channel))
          .then((sent): Reply<unknown> => (sent.ok ? { ok: true, value: null } : { ok: false, error: { code: 'network', message: sent.error.message } }));
      },
      stop: finish,
    };

  },
});
