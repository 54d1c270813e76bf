/**
 * The `realtime-call` media session kind: one socket of a realtime call (`/v1/realtime`), run in
 * the media process so the microphone, the answer audio and barge-in never wait for main's event
 * loop. Main (main/live/realtime.ts) keeps the conversation, the recording and the tools; a
 * dropped socket ends this session and main opens a new one to reconnect (seeded items first).
 *
 * - Opens the socket with the API key, or a client secret main minted (as the subprotocol);
 *   `call_id` for a SIP call. Sends `session.update`, then the seed items, before any audio.
 * - Microphone: the page's PCM16 frames (`mic` input), a native device (main/audio Capture), a
 *   WAV file paced as one, or none; sent as `input_audio_buffer.append` in 20 ms frames, encoded
 *   to the input format (PCM16, or G.711 µ-law/A-law); up to main in 100 ms `mic-audio` events;
 *   its level on the `levels` output (rms and peak dBFS, float32 pair, ~20/s) for the console's meter.
 * - Answer audio (`response.output_audio.delta`) decoded to PCM16 and played (realtime-output.ts:
 *   native, the page, or nowhere), and sent up as `model-audio` for the recording as it is heard
 *   (realtime-heard.ts: at the time it played; what a barge-in cut off is not recorded).
 * - Barge-in, here: `speech_started` while an answer is audible flushes playback at once and sends
 *   `conversation.item.truncate` with the ms of that item actually played (native: the flush's
 *   count; page: the page's report of where it stopped). Later deltas of that item are not played.
 * - Up to main: `server` (each service message as it is read, masked by the socket, audio deltas
 *   summarised), `socket-frame` (our messages as captured, masked; the appends left out), `mark` (speech_started, speech_stopped,
 *   first_audio, first_played, barge_in, truncated; media clock `at`), `mic-audio`, `model-audio`.
 * Control from main: `send` (a client event as is), `played` (page position), `mute`, `talk`
 * (push-to-talk held or not: appends only while held), `cancel` (flush + `response.cancel` + truncate).
 */
import { z } from 'zod';
import type { Reply } from '../../shared/contract/protocol';
import { WorkbenchFailure } from '../../shared/contract/errors';
import { LevelMeter } from '../../shared/audio/levels';
import { FrameKind } from '../../shared/media-frames/frame';
import { ApiClient } from '../api/client';
import { toWorkbenchError } from '../api/errors';
import { openRealtimeSocket } from '../api/realtime';
import type { RealtimeServerEvent } from '../../shared/wire/realtime';
import { fileSource } from './file-source';
import { nativeMicrophone } from './native-microphone';
import { heardAudio } from './realtime-heard';
import { startLoopProbe } from './loop-probe';
import { onePerTurn } from './one-per-turn';
import { inputClock } from './realtime-input-clock';
import { decode, encode, formatSchema, hint, pcmBase64 } from './realtime-audio-format';
import { nativeOutput, noOutput, pageOutput, type CallOutput } from './realtime-output';
import { defineKind } from './session-kinds';

const FRAME_MS = 20;
/** Microphone audio goes up to main (for the recording) in pieces this long. */
const MIC_EVENT_MS = 100;
/** How often the model audio heard so far goes up to be recorded. */
const HEARD_TICK_MS = 50;

export const RealtimeCallOptionsSchema = z
  .object({
    connection: z.object({ baseUrl: z.string().min(1).max(2000), apiKey: z.string().max(4000).nullable() }).strict(),
    auth: z.discriminatedUnion('kind', [z.object({ kind: z.literal('key') }).strict(), z.object({ kind: z.literal('client_secret'), secret: z.string().min(1).max(4000) }).strict()]),
    query: z.object({ model: z.string().max(200).optional(), 'reasoning.effort': z.string().max(20).optional(), call_id: z.string().max(200).optional() }).strict(),
    /** The `session` of the first `session.update`. */
    session: z.record(z.string(), z.unknown()),
    /** Items sent with `conversation.item.create` before any audio (a reconnect's history). */
    seed: z.array(z.record(z.string(), z.unknown())).max(5000).default([]),
    formats: z.object({ input: formatSchema, output: formatSchema }).strict(),
    microphone: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('page') }).strict(),
      z.object({ kind: z.literal('native'), device: z.string().max(500).optional() }).strict(),
      z.object({ kind: z.literal('file'), path: z.string().min(1).max(4096), speed: z.number().min(0.5).max(20) }).strict(),
      z.object({ kind: z.literal('none') }).strict(),
    ]),
    output: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('page') }).strict(),
      z.object({ kind: z.literal('native'), device: z.string().max(500).optional(), backend: z.enum(['native', 'paced']).default('native') }).strict(),
      z.object({ kind: z.literal('none') }).strict(),
    ]),
    /**
     * Push-to-talk (manual turns, our microphone): appends go out only while the talk button is
     * held (`talk` control); released, nothing is sent, yet the microphone still goes up as
     * `mic-audio` (the recording keeps the whole microphone track). Absent: always sent.
     */
    pushToTalk: z.object({ held: z.boolean() }).strict().optional(),
    /** Benchmarks: `timings` events carry, per microphone frame, [its audio's time, written to the socket] (media clock). */
    timings: z.boolean().default(false),
  })
  .strict();
export type RealtimeCallOptions = z.input<typeof RealtimeCallOptionsSchema>;

export const RealtimeCallMediaControlSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('send'), event: z.looseObject({ type: z.string().min(1).max(200) }) }).strict(),
  z.object({ type: z.literal('played'), itemId: z.string().min(1).max(200), playedMs: z.number().min(0), flushed: z.boolean() }).strict(),
  z.object({ type: z.literal('mute'), muted: z.boolean() }).strict(),
  z.object({ type: z.literal('talk'), held: z.boolean() }).strict(),
  z.object({ type: z.literal('cancel') }).strict(),
]);

const NO_SAMPLES = new Int16Array(0);

const isAudioDelta = (event: { kind: string; message?: unknown }): boolean => event.kind === 'message' && (event.message as { type?: unknown }).type === 'response.output_audio.delta';

export const realtimeCallKind = defineKind({
  kind: 'realtime-call',
  options: RealtimeCallOptionsSchema,
  async start(ctx, options) {
    const { input: inFormat, output: outFormat } = options.formats;
    const client = new ApiClient({ baseUrl: options.connection.baseUrl, apiKey: options.connection.apiKey, retry: { retries: 0, baseDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 0 } });
    const abort = new AbortController();
    let appendsSent = 0;
    const opened = await openRealtimeSocket(client, {
      query: options.query,
      auth: options.auth.kind === 'key' ? { kind: 'key' } : { kind: 'client_secret', secret: options.auth.secret, via: 'protocol' },
      signal: abort.signal,
      now: () => ctx.now(),
      audio: { input: hint(inFormat), output: hint(outFormat) },
      // Our messages as captured (masked). The service's go up from the reading loop as `server`
      // events instead: the capture may hold a frame until the next one of its direction settles
      // a possible key across frames, and main needs each event as it comes.
      // Our own appends are the microphone (recorded from `mic-audio`): counted where sent, never
      // captured, so neither they nor the service's frames cost a summary, a mask or a log entry.
      captures: (direction, type) => direction === 'out' && type !== null && type !== 'input_audio_buffer.append',
      onFrame: (frame) => {
        if (frame.kind === 'binary' || frame.direction === 'in') return;
        ctx.event('socket-frame', frame);
      },
    });
    if (!opened.ok) {
      await client.dispose();
      throw new WorkbenchFailure(toWorkbenchError(opened.error));
    }
    const socket = opened.socket;
    let closing = false;
    const send = (event: Record<string, unknown>): Promise<{ ok: boolean; message?: string }> =>
      socket.sendJson(event).then((r) => (r.ok ? { ok: true } : { ok: false, message: r.error.message }));

    await send({ type: 'session.update', session: options.session });
    for (const item of options.seed) await send({ type: 'conversation.item.create', item });

    const mark = (type: string, data: Record<string, unknown> = {}): void => ctx.event('mark', { mark: type, at: ctx.now(), ...data });
    // The model track holds what was heard, when it was heard (realtime-heard.ts).
    const heard = heardAudio({
      rate: outFormat.rate,
      live: options.output.kind !== 'none',
      now: () => ctx.now(),
      emit: (itemId, pcm, at) => ctx.event('model-audio', { itemId, pcm: pcmBase64(pcm), at }),
      playedMs: (itemId) => output.playedMs(itemId),
    });
    const heardTimer = setInterval(() => heard.tick(), HEARD_TICK_MS);
    const outputOptions = {
      rate: outFormat.rate,
      onFirstPlayed: (itemId: string, at: number) => {
        heard.firstPlayed(itemId, at);
        ctx.event('mark', { mark: 'first_played', itemId, at });
      },
      onError: (message: string) => ctx.event('output-failed', { message }),
    };
    let output: CallOutput = noOutput();
    let playbackStream = -1;
    if (options.output.kind === 'native') {
      output = await nativeOutput(ctx, { ...outputOptions, device: options.output.device ?? null, backend: options.output.backend });
    } else if (options.output.kind === 'page') {
      const page = pageOutput(ctx, outputOptions);
      playbackStream = page.stream.id;
      output = page;
    }

    // ---- Microphone: 20 ms frames to the service, 100 ms pieces to main ----
    const frameSamples = Math.round((inFormat.rate * FRAME_MS) / 1000);
    let pending = NO_SAMPLES;
    let micPiece: Int16Array[] = [];
    let micPieceSamples = 0;
    let micPieceAt = 0;
    let muted = false;
    let framesSent = 0;
    let framesRefused = 0;
    /** Push-to-talk: whether appends go out now (always without push-to-talk). */
    let talking = options.pushToTalk ? options.pushToTalk.held : true;
    /** Frames not sent because the talk button was not held. */
    let framesWithheld = 0;
    // The microphone's level (rms and peak dBFS, a float32 pair, about 20 times a second) for the
    // console's meter, as the transcription session sends it: a native or file microphone is
    // never heard by the page, so this is its only meter. Metered as sent (muted: silence).
    const levelsOut = options.microphone.kind === 'none' ? null : ctx.openOutput('levels');
    const meter = levelsOut
      ? new LevelMeter(inFormat.rate, 1, (level) => {
          const payload = new Uint8Array(8);
          const view = new DataView(payload.buffer);
          view.setFloat32(0, level.rmsDbfs);
          view.setFloat32(4, level.peakDbfs);
          levelsOut.send(FrameKind.Data, payload);
        })
      : null;
    // Sample positions of what we send -> when they were captured (speech_stopped's audio_end_ms).
    const sentClock = inputClock(inFormat.rate);
    const onPcm = (bytes: Uint8Array, at: number): void => {
      if (closing) return;
      let pcm = new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength - (bytes.byteLength % 2)));
      // Withheld audio never reaches the service, so it is not on the service's audio clock either.
      const sending = talking;
      if (sending) sentClock.captured(pcm.length, at);
      if (muted) pcm = new Int16Array(pcm.length); // silence keeps the service's audio clock going
      // The usual case (a device's 20 ms frames, nothing pending) takes the frame as it is: pcm is
      // this call's own copy, so its frames are kept for the 100 ms piece without another.
      let joined = pcm;
      if (pending.length > 0) {
        joined = new Int16Array(pending.length + pcm.length);
        joined.set(pending);
        joined.set(pcm, pending.length);
      }
      let offset = 0;
      while (joined.length - offset >= frameSamples) {
        const frame = joined.subarray(offset, offset + frameSamples);
        offset += frameSamples;
        if (!sending) framesWithheld++;
        else {
          const encoded = encode(inFormat, frame);
          void socket.sendJson({ type: 'input_audio_buffer.append', audio: Buffer.from(encoded.buffer, encoded.byteOffset, encoded.byteLength).toString('base64') }).then((r) => {
            if (r.ok && options.timings) timings.push(at, ctx.now());
            if (r.ok) appendsSent++;
            return r.ok ? framesSent++ : framesRefused++;
          });
        }
        if (micPieceSamples === 0) micPieceAt = at;
        micPiece.push(frame);
        micPieceSamples += frame.length;
      }
      pending = offset === joined.length ? NO_SAMPLES : joined.slice(offset);
      // The appends are written in this turn's microtasks; what only main and the pages need
      // (the level, the 100 ms piece up to main: a structured clone over IPC, slower while main
      // is blocked) waits for the end of the turn so it never delays them (measured: 3-7 ms).
      if (!afterSend) {
        afterSend = true;
        setImmediate(() => {
          afterSend = false;
          if (closing) return;
          for (const piece of metered.splice(0)) meter?.push(piece);
          if (micPieceSamples * 1000 >= MIC_EVENT_MS * inFormat.rate) flushMic();
        });
      }
      if (meter) metered.push(pcm);
    };
    let afterSend = false;
    const metered: Int16Array[] = [];
    const timings: number[] = [];
    // Benchmarks: what stalled this process's loop during the call (loop-probe.ts), in `stats`.
    const probe = options.timings ? startLoopProbe(() => ctx.now()) : null;
    const statsNow = () => ({ framesSent, framesRefused, framesWithheld, appendsSent, socket: socket.stats, ...(probe ? { loop: probe.report() } : {}) });
    const flushMic = (): void => {
      if (timings.length > 0) ctx.event('timings', { captureSent: timings.splice(0) });
      if (micPieceSamples === 0) return;
      const all = new Int16Array(micPieceSamples);
      let o = 0;
      for (const p of micPiece) {
        all.set(p, o);
        o += p.length;
      }
      ctx.event('mic-audio', { pcm: pcmBase64(all), at: micPieceAt });
      micPiece = [];
      micPieceSamples = 0;
    };
    const mic = options.microphone.kind === 'page' ? ctx.openInput('mic', (frame) => onPcm(frame.payload, frame.timestamp)) : null;
    const native =
      options.microphone.kind === 'native'
        ? await nativeMicrophone(ctx, { sampleRate: inFormat.rate, device: options.microphone.device, channels: 1 }, onPcm, (error) => ctx.event('microphone-failed', { message: `${error.message.replace(/[.\s]*$/, '.')} The call goes on without the microphone.` }))
        : null;
    const file = options.microphone.kind === 'file' ? await fileSource(options.microphone.path, { sampleRate: inFormat.rate, channels: 1, speed: options.microphone.speed, now: () => ctx.now() }, onPcm, () => ctx.event('source-ended', {})) : null;
    ctx.event('opened', { streams: { mic: mic?.id ?? -1, levels: levelsOut?.id ?? -1, playback: playbackStream }, now: ctx.now() });

    // ---- Barge-in: flush at once, truncate to what was heard ----
    const cut = new Set<string>();
    const bargeIn = async (why: 'barge_in' | 'cancel'): Promise<{ itemId: string; playedMs: number } | null> => {
      if (!output.audible()) return null;
      const flushedAt = ctx.now();
      const flushed = await output.flush();
      if (!flushed) return null;
      cut.add(flushed.itemId);
      heard.cut(flushed.itemId, flushed.playedMs);
      if (why === 'barge_in') mark('barge_in', { itemId: flushed.itemId, at: flushedAt });
      await send({ type: 'conversation.item.truncate', item_id: flushed.itemId, content_index: 0, audio_end_ms: flushed.playedMs });
      mark('truncated', { itemId: flushed.itemId, playedMs: flushed.playedMs });
      return flushed;
    };

    // ---- The service's events ----
    const firstAudio = new Set<string>();
    const reading = (async () => {
      // The service sends an answer faster than real time, so its deltas queue up; decoding and
      // resampling a second of them in one turn held the microphone's next frame back by tens of
      // ms (the send jitter, test/bench/realtime-call.ts). One delta per turn of the loop.
      for await (const event of onePerTurn(socket, isAudioDelta)) {
        if (event.kind === 'invalid') {
          ctx.event('server', { message: { type: 'invalid', issue: event.error.message }, at: event.at });
          continue;
        }
        if (event.kind !== 'message' && event.kind !== 'unknown') continue;
        const m = event.message as RealtimeServerEvent;
        // Up to main in order (audio summarised: main records it from `model-audio`).
        ctx.event('server', { message: m.type === 'response.output_audio.delta' ? { ...m, delta: { $audio: { bytes: Math.floor((m.delta.length * 3) / 4) } } } : m, at: event.at });
        if (m.type === 'input_audio_buffer.speech_started') {
          mark('speech_started', { itemId: m.item_id ?? null, at: event.at });
          heard.interrupted(event.at); // no playback (a SIP line): the far side's speech stopped the answer there
          void bargeIn('barge_in');
        } else if (m.type === 'input_audio_buffer.speech_stopped') {
          // At the capture time of the sample the service says speech ended at (its arrival when unknown).
          const capturedAt = sentClock.timeOf(m.audio_end_ms);
          mark('speech_stopped', { itemId: m.item_id ?? null, at: capturedAt ?? event.at, audioEndMs: m.audio_end_ms });
        } else if (m.type === 'response.output_audio.delta') {
          const itemId = m.item_id ?? m.response_id ?? 'answer';
          if (!firstAudio.has(itemId)) {
            firstAudio.add(itemId);
            mark('first_audio', { itemId, responseId: m.response_id ?? null, at: event.at });
          }
          if (cut.has(itemId)) continue;
          const pcm = decode(outFormat, Buffer.from(m.delta, 'base64'));
          output.play(itemId, pcm);
          heard.received(itemId, pcm, event.at);
        } else if (m.type === 'response.output_audio.done') {
          output.endItem(m.item_id ?? m.response_id ?? 'answer');
          heard.ended(m.item_id ?? m.response_id ?? 'answer');
        }
      }
    })();

    void socket.closed.then(async (closed) => {
      await reading.catch(() => undefined);
      if (closing) return;
      closing = true;
      await release();
      ctx.event('stats', statsNow());
      // A clean close from the service (a SIP call hung up) ends the call, with the reason it gave; anything else is a drop.
      if (!closed.error) ctx.event('closed', { code: closed.code, reason: closed.reason });
      ctx.end(closed.error ? { code: closed.error.kind === 'timeout' ? 'timeout' : 'network', message: closed.error.message } : undefined);
    });

    let released = false;
    async function release(): Promise<void> {
      if (released) return;
      released = true;
      native?.dispose();
      file?.dispose();
      flushMic();
      clearInterval(heardTimer);
      probe?.dispose();
      heard.dispose();
      await output.dispose();
      abort.abort();
      await client.dispose();
    }

    const fail = (message: string): Reply<unknown> => ({ ok: false, error: { code: 'invalid_input', message } });
    return {
      async control(raw: unknown): Promise<Reply<unknown>> {
        const parsed = RealtimeCallMediaControlSchema.safeParse(raw);
        if (!parsed.success) return fail(`Not a realtime call control message: ${parsed.error.issues[0]?.message ?? 'invalid'}.`);
        const message = parsed.data;
        if (message.type === 'played') {
          output.reported(message.itemId, message.playedMs, message.flushed);
          return { ok: true, value: null };
        }
        if (message.type === 'talk') {
          talking = message.held;
          return { ok: true, value: null };
        }
        if (message.type === 'mute') {
          muted = message.muted;
          return { ok: true, value: null };
        }
        if (message.type === 'cancel') {
          await send({ type: 'response.cancel' });
          return { ok: true, value: await bargeIn('cancel') };
        }
        const sent = await send(message.event);
        return sent.ok ? { ok: true, value: null } : { ok: false, error: { code: 'network', message: sent.message ?? 'The call is not connected.' } };
      },
      async stop() {
        if (closing) return;
        closing = true;
        flushMic();
        await socket.close(1000, 'hang up');
        await reading.catch(() => undefined);
        ctx.event('stats', statsNow());
        await release();
      },
    };
  },
});
