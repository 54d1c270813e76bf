/**
 * Where a realtime call's answer audio is heard, inside the media process: a native device
 * (main/audio's Playback, 2 ms writes with one queued so a flush falls silent quickly), the page
 * (PCM16 frames on the `playback` stream; the page plays them and reports its played position), or
 * nowhere (a SIP call: the caller hears the model through the service).
 *
 * Positions are per answer item: `play(itemId, pcm)` starts a new item when the id changes, and
 * `flush()` stops the audio at once and says how many ms of that item were heard — the
 * `audio_end_ms` of the truncate. `onFirstPlayed` fires once per item when its first sample is
 * heard (native: the device's played count passed the item's start; page: its first report).
 */
import { FrameKind } from '../../shared/media-frames/frame';
import { INTERRUPTIBLE_OUTPUT, Playback } from '../audio/playback';
import { createPacedBackend } from '../audio/paced-backend';
import type { AudioBackend } from '../audio/types';
import type { MediaSessionContext, OutputStream } from './session-kinds';

/** How often native playback is looked at for an item's first played sample. */
const POLL_MS = 5;
/** Page frames: 20 ms of PCM16 each. */
const PAGE_FRAME_MS = 20;
/** A page report this close to the end of what was sent means the item has played out. */
const PAGE_TOLERANCE_MS = 5;
/** How far behind real time a page's playback may run before its item counts as played out. */
const PAGE_LATE_MS = 1000;

export interface CallOutput {
  readonly kind: 'native' | 'page' | 'none';
  /** Queues answer audio (PCM16 mono at the output rate) of `itemId`. */
  play(itemId: string, pcm: Int16Array): void;
  /** The item's audio is all here: play out its tail. */
  endItem(itemId: string): void;
  /** The item being heard now (audio queued and not all played), or null. */
  audible(): string | null;
  /** Ms of `itemId` played so far when the output knows (the item now playing), else null. */
  playedMs(itemId: string): number | null;
  /** Stops the audio now; the item that was playing and the ms of it heard. */
  flush(): Promise<{ itemId: string; playedMs: number } | null>;
  /** The page's report of its played position (page output only). */
  reported(itemId: string, playedMs: number, flushed: boolean): void;
  dispose(): Promise<void>;
}

export interface CallOutputOptions {
  rate: number;
  device?: string | null;
  /** `paced`: main/audio's timer-driven device (tests and benchmarks). */
  backend?: 'native' | 'paced';
  onFirstPlayed(itemId: string, at: number): void;
  onError(message: string): void;
}

export function noOutput(): CallOutput {
  return { kind: 'none', play: () => undefined, endItem: () => undefined, audible: () => null, playedMs: () => null, flush: async () => null, reported: () => undefined, dispose: async () => undefined };
}

async function backendOf(ctx: MediaSessionContext, kind: 'native' | 'paced'): Promise<AudioBackend> {
  if (kind === 'paced') return createPacedBackend({ outputCanDiscard: false, outputs: [{ name: 'paced', sampleRate: 48000, channels: 2 }] });
  const loaded = await ctx.audioBackend();
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.value;
}

export async function nativeOutput(ctx: MediaSessionContext, options: CallOutputOptions): Promise<CallOutput> {
  const backend = await backendOf(ctx, options.backend ?? 'native');
  const opened = Playback.open({
    backend,
    deviceId: options.device ?? null,
    sourceRate: options.rate,
    // Barge-in: the least naudiodon holds once written (2 ms writes, one queued).
    ...INTERRUPTIBLE_OUTPUT,
    onError: (error) => options.onError(`The output device stopped: ${error.message}`),
  });
  if (!opened.ok) throw new Error(opened.error.message);
  const playback = opened.value;
  // Ms of audio enqueued in total, and where the current item starts in that count (Playback's
  // `playedMs` counts the same audio, so played - start is the item's heard ms).
  let enqueuedMs = 0;
  let item: { id: string; startMs: number; firstPlayed: boolean } | null = null;
  const poll = setInterval(() => {
    if (!item || item.firstPlayed) return;
    if (playback.stats.playedMs > item.startMs) {
      item.firstPlayed = true;
      options.onFirstPlayed(item.id, ctx.now());
    }
  }, POLL_MS);
  return {
    kind: 'native',
    play(itemId, pcm) {
      if (item?.id !== itemId) {
        playback.markItem();
        item = { id: itemId, startMs: enqueuedMs, firstPlayed: false };
      }
      playback.enqueue(pcm);
      enqueuedMs += (pcm.length * 1000) / options.rate;
    },
    endItem(itemId) {
      if (item?.id === itemId) playback.end();
    },
    audible() {
      return item && playback.stats.playedMs < enqueuedMs - 1 ? item.id : null;
    },
    playedMs(itemId) {
      return item?.id === itemId ? Math.max(0, playback.stats.playedMs - item.startMs) : null;
    },
    async flush() {
      const current = item;
      const playedMs = playback.flush();
      // What was taken back is no longer queued: the count restarts from what was heard.
      enqueuedMs = playback.stats.playedMs;
      item = null;
      return current ? { itemId: current.id, playedMs: Math.round(playedMs) } : null;
    },
    reported: () => undefined,
    async dispose() {
      clearInterval(poll);
      await playback.dispose();
    },
  };
}

/**
 * The page plays: PCM16 20 ms frames on `playback` (a new item's first frame is preceded by a Data
 * frame `{"item": id}`; a flush is a Data frame `{"flush": id}`). The page reports its played
 * position per item with the `played` control message; a flush waits (≤ `reportWaitMs`) for the
 * page's report of where it stopped, else uses the last report.
 */
export function pageOutput(ctx: MediaSessionContext, options: CallOutputOptions & { reportWaitMs?: number }): CallOutput & { stream: OutputStream } {
  const stream = ctx.openOutput('playback');
  const frameSamples = Math.round((options.rate * PAGE_FRAME_MS) / 1000);
  const encoder = new TextEncoder();
  let item: { id: string; sentMs: number; playedMs: number; firstPlayed: boolean; startedAt: number } | null = null;
  let pending = new Int16Array(0);
  let waiter: ((playedMs: number) => void) | null = null;
  const sendFrames = (final: boolean): void => {
    let at = 0;
    while (pending.length - at >= frameSamples || (final && pending.length - at > 0)) {
      const frame = pending.slice(at, at + frameSamples);
      stream.send(FrameKind.Audio, new Uint8Array(frame.buffer, frame.byteOffset, frame.byteLength));
      at += frame.length;
      if (item) item.sentMs += (frame.length * 1000) / options.rate;
    }
    pending = pending.slice(at);
  };
  return {
    kind: 'page',
    stream,
    play(itemId, pcm) {
      if (item?.id !== itemId) {
        sendFrames(true);
        item = { id: itemId, sentMs: 0, playedMs: 0, firstPlayed: false, startedAt: ctx.now() };
        stream.send(FrameKind.Data, encoder.encode(JSON.stringify({ item: itemId })));
      }
      const joined = new Int16Array(pending.length + pcm.length);
      joined.set(pending);
      joined.set(pcm, pending.length);
      pending = joined;
      sendFrames(false);
    },
    endItem(itemId) {
      if (item?.id === itemId) sendFrames(true);
    },
    audible() {
      if (!item) return null;
      // Played out by the page's last report (rounded to whole ms), or by the clock: an item cannot
      // still be playing a second after its audio would have ended (a page that stopped reporting).
      const playedOut = item.playedMs >= item.sentMs - PAGE_TOLERANCE_MS || ctx.now() > item.startedAt + item.sentMs + PAGE_LATE_MS;
      return playedOut ? null : item.id;
    },
    async flush() {
      const current = item;
      if (!current) return null;
      pending = new Int16Array(0);
      stream.send(FrameKind.Data, encoder.encode(JSON.stringify({ flush: current.id })));
      const heard = await new Promise<number>((resolve) => {
        const timer = setTimeout(() => {
          waiter = null;
          resolve(current.playedMs);
        }, options.reportWaitMs ?? 300);
        waiter = (ms) => {
          clearTimeout(timer);
          waiter = null;
          resolve(ms);
        };
      });
      item = null;
      return { itemId: current.id, playedMs: Math.round(heard) };
    },
    playedMs(itemId) {
      return item?.id === itemId ? item.playedMs : null;
    },
    reported(itemId, playedMs, flushed) {
      if (!item || item.id !== itemId) return;
      item.playedMs = Math.max(item.playedMs, playedMs);
      if (!item.firstPlayed && playedMs > 0) {
        item.firstPlayed = true;
        // The report comes a little after the page started: its first sample played `playedMs` ago (not before we sent it).
        options.onFirstPlayed(itemId, Math.max(item.startedAt, ctx.now() - playedMs));
      }
      if (flushed) waiter?.(playedMs);
    },
    async dispose() {
      waiter?.(item?.playedMs ?? 0);
    },
  };
}
