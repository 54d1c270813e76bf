/**
 * Speech through a native output device: main's side of the media process's `speech-output`
 * session (main/media/speech-output-session.ts). Main has the audio (REST's file, or each
 * `audio.delta` as the socket delivers it) and hands it on at once; the media process decodes and
 * plays it, so a busy main never makes the speech stutter. `stop()` flushes the device at once and
 * answers the milliseconds heard; `progress` carries the same count while it plays (the page's
 * waveform clock follows it).
 */
import type { Reply } from '../../../shared/contract/protocol';
import type { TtsCodec } from '../../../shared/wire/tts';
import type { MediaPlane, MediaPlaneEvent } from '../../media/media-plane';
import type { SpeechOutputDone } from '../../media/speech-output-session';

export type SpeechOutputMedia = Pick<MediaPlane, 'startSession' | 'stopSession' | 'controlSession' | 'onEvent'>;

export interface SpeechOutputOpen {
  codec: TtsCodec;
  sampleRate: number;
  /** An output device id (`audio.devices`), or null for the default output. */
  device?: string | null;
  /** `paced`: main/audio's timer-driven device (tests, benchmarks). */
  backend?: 'native' | 'paced';
}

export type SpeechOutputEvent =
  | { type: 'opened'; device: string; deviceId: string; deviceRate: number }
  /** Media-process clock (ms): the first audio arrived there, and its first sample was written to the device. */
  | { type: 'first-write'; arrivedAt: number | null; writtenAt: number; at: number }
  | { type: 'progress'; playedMs: number }
  | { type: 'silence'; flushedAt: number; silentAt: number }
  /** Stop flushed the device: media-process clock (ms) and CLOCK_MONOTONIC (ns, as a string). */
  | { type: 'flushed'; flushedAt: number; monotonicNs: string; playedMs: number }
  | ({ type: 'done'; error?: string } & SpeechOutputDone);

let nextId = 0;

export class SpeechOutput {
  private readonly listeners = new Set<(event: SpeechOutputEvent) => void>();
  private unsubscribe: () => void = () => {};
  private doneResolve!: (done: SpeechOutputDone & { error?: string }) => void;
  private lastDone: (SpeechOutputDone & { error?: string }) | null = null;
  /** `opened` comes while the session starts, before anyone can listen: kept for late listeners. */
  private opened: SpeechOutputEvent | null = null;
  /** Resolves when the session has ended: played out, stopped, or failed (`error`). */
  readonly done: Promise<SpeechOutputDone & { error?: string }>;

  private constructor(
    private readonly media: SpeechOutputMedia,
    readonly id: string,
  ) {
    this.done = new Promise((resolve) => (this.doneResolve = resolve));
  }

  /** Opens the device (in the media process) before any audio, so the first piece plays at once. */
  static async open(media: SpeechOutputMedia, options: SpeechOutputOpen): Promise<Reply<SpeechOutput>> {
    const output = new SpeechOutput(media, `speech-out-${process.pid}-${++nextId}`);
    output.unsubscribe = media.onEvent((e) => output.onMedia(e));
    const started = await media.startSession(output.id, 'speech-output', {
      codec: options.codec,
      sampleRate: options.sampleRate,
      ...(options.device ? { device: options.device } : {}),
      backend: options.backend ?? 'native',
    });
    if (!started.ok) {
      output.unsubscribe();
      return started;
    }
    return { ok: true, value: output };
  }

  onEvent(listener: (event: SpeechOutputEvent) => void): () => void {
    this.listeners.add(listener);
    if (this.opened) listener(this.opened);
    return () => this.listeners.delete(listener);
  }

  /** One piece of the audio, in the codec given at open (sent in order; not awaited by the caller). */
  push(audio: Uint8Array): Promise<Reply<unknown>> {
    return this.media.controlSession(this.id, { type: 'audio', data: Buffer.from(audio.buffer, audio.byteOffset, audio.byteLength).toString('base64') });
  }

  /** No more audio: what is queued plays to its end, then `done`. */
  end(): Promise<Reply<unknown>> {
    return this.media.controlSession(this.id, { type: 'end' });
  }

  /** Stops now: the ms of this speech actually heard. */
  async stop(): Promise<Reply<{ playedMs: number }>> {
    if (this.lastDone) return { ok: true, value: { playedMs: this.lastDone.playedMs } };
    return (await this.media.controlSession(this.id, { type: 'flush' })) as Reply<{ playedMs: number }>;
  }

  /** Ends the session whatever its state (a cancelled run, the app quitting). */
  async dispose(): Promise<void> {
    await this.media.stopSession(this.id);
    this.unsubscribe();
    // A session main stops sends no `ended`: done resolves here.
    this.doneResolve({ ...(this.lastDone ?? { playedMs: 0, underruns: 0, stopped: true }) });
  }

  private onMedia(e: MediaPlaneEvent): void {
    if (e.type === 'session-event' && e.sessionId === this.id) {
      const data = (e.data ?? {}) as Record<string, unknown>;
      const event = { type: e.event, ...data, ...(e.event === 'first-write' ? { at: e.at } : {}) } as SpeechOutputEvent;
      if (event.type === 'done') this.lastDone = event;
      if (event.type === 'opened') this.opened = event;
      for (const l of this.listeners) l(event);
    } else if (e.type === 'session-ended' && e.sessionId === this.id) {
      this.unsubscribe();
      const done = { ...(this.lastDone ?? { playedMs: 0, underruns: 0, stopped: true }), ...(e.error ? { error: e.error.message } : {}) };
      this.doneResolve(done);
    } else if (e.type === 'crashed') {
      this.unsubscribe();
      this.doneResolve({ ...(this.lastDone ?? { playedMs: 0, underruns: 0, stopped: true }), error: 'The media process stopped while the speech was playing.' });
    }
  }
}

/** What a run with native output reports: `played` for its result. */
export interface NativePlay {
  push(audio: Uint8Array): void;
  /** After the last audio: resolves when it has played out, or at once with Stop (the signal). */
  finish(): Promise<{ ms: number; stopped: boolean; error: string | null }>;
}

/**
 * Opens the chosen device for a speech run: each piece of audio is handed on as it comes, the
 * device's name and the ms heard go to the page as chunks, and the run's signal (the page's Stop)
 * flushes the device at once.
 */
export async function openNativePlay(
  media: SpeechOutputMedia | undefined,
  options: SpeechOutputOpen,
  signal: AbortSignal,
  emit: (chunk: { type: 'device'; name: string } | { type: 'played'; ms: number }) => void,
): Promise<Reply<NativePlay>> {
  if (!media) return { ok: false, error: { code: 'unsupported', message: 'Native output needs the media process, which is not running: play the speech in the page instead.' } };
  const opened = await SpeechOutput.open(media, options);
  if (!opened.ok) return { ok: false, error: { code: opened.error.code, message: `The output device could not play the speech: ${opened.error.message}` } };
  const output = opened.value;
  output.onEvent((e) => {
    if (e.type === 'opened') emit({ type: 'device', name: e.device });
    else if (e.type === 'progress') emit({ type: 'played', ms: e.playedMs });
  });
  let stoppedMs: number | null = null;
  const onAbort = (): void => {
    void output.stop().then((r) => {
      if (r.ok) stoppedMs = r.value.playedMs;
    });
  };
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) onAbort();
  return {
    ok: true,
    value: {
      push: (audio) => void output.push(audio),
      async finish() {
        if (!signal.aborted) void output.end();
        const done = await output.done;
        signal.removeEventListener('abort', onAbort);
        const ms = stoppedMs ?? done.playedMs;
        emit({ type: 'played', ms });
        return { ms, stopped: done.stopped, error: done.error ?? null };
      },
    },
  };
}

export type Played = NonNullable<import('../../../shared/families/speech/contract').SpeechRunResult['played']>;

/** REST: the whole file through the device; a device that cannot play is said in `error` (the run stands). */
export async function playWhole(media: SpeechOutputMedia | undefined, options: SpeechOutputOpen, audio: Uint8Array, signal: AbortSignal, emit: Parameters<typeof openNativePlay>[3]): Promise<Played> {
  const opened = await openNativePlay(media, options, signal, emit);
  if (!opened.ok) return { ms: 0, stopped: false, error: opened.error.message };
  opened.value.push(audio);
  return opened.value.finish();
}
