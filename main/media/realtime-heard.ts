/**
 * The model's track as it was heard. The service sends an answer's audio faster than real time
 * (the sandbox up to a second ahead), so recording each delta when it arrives would put the
 * answer early on the model track and keep the audio a barge-in cut off (never heard, overlapping
 * the caller's interruption). Here each item's audio waits until it is played: it goes up to the
 * recording from the item's first played sample, as far as the output has played it (its own
 * count, else real time since then), placed at the time it was played; a flush releases exactly
 * the heard milliseconds and drops the rest. With no playback (`none`: a SIP call, a call with no
 * output) the far side still hears the answer in real time (a phone line plays it out, one answer
 * after the other): each item starts when its first audio arrives (or when the one before it ends)
 * and is released in real time from there. Recorded on arrival instead, an answer sent ahead ran
 * the model track past the call's end (a kill -9 mid-answer left seconds never heard).
 */

export interface HeardAudio {
  /** An item's decoded audio as received (played or queued for playback). */
  received(itemId: string, pcm: Int16Array, at: number): void;
  /** The item's first sample was played at media time `at`. */
  firstPlayed(itemId: string, at: number): void;
  /** The item's audio is all received (`response.output_audio.done`): forgotten once released. */
  ended(itemId: string): void;
  /** Playback was flushed after `playedMs` of the item: that much is kept, the rest dropped. */
  cut(itemId: string, playedMs: number): void;
  /**
   * No playback: the far side spoke at media time `at` (`speech_started`), and the line stopped
   * the answer there (a barge-in the service acts on): what had played by then is kept, the rest
   * of that answer and any queued behind it are dropped.
   */
  interrupted(at: number): void;
  /** Releases what real time says has been played by now (called on a short timer). */
  tick(): void;
  /** The call ends: what has been played by now goes up; audio never played is dropped. */
  dispose(): void;
}

interface Item {
  id: string;
  /** Received and not yet released, in order. */
  queue: Int16Array[];
  queued: number;
  /** Samples released so far. */
  released: number;
  /** Media time of the first played sample, once known. */
  startAt: number | null;
  done: boolean;
  /** All its audio was received. */
  complete: boolean;
}

/**
 * `emit(itemId, pcm, at)` sends a piece up to be recorded at media time `at`. `live`: false for
 * no playback (record on arrival). `now`: the media clock (ms). `playedMs(itemId)`: the output's
 * own count of the item's played ms when it has one (a device that plays slower than the clock,
 * or a page's reports); else real time since the first played sample.
 */
export function heardAudio(options: {
  rate: number;
  live: boolean;
  now: () => number;
  emit: (itemId: string, pcm: Int16Array, at: number) => void;
  playedMs?: (itemId: string) => number | null;
}): HeardAudio {
  const { rate, emit, now } = options;
  const items: Item[] = [];
  /** No playback: when the line is free again (the end of the last item's audio, at real-time pace). */
  let lineFreeAt = Number.NEGATIVE_INFINITY;
  /** Items the line stopped (no playback): their late deltas are not heard either. The last few are enough. */
  const stopped = new Set<string>();
  const itemOf = (id: string): Item => {
    let item = items.find((i) => i.id === id);
    if (!item) {
      item = { id, queue: [], queued: 0, released: 0, startAt: null, done: false, complete: false };
      items.push(item);
    }
    return item;
  };

  /** Sends up to `upTo` samples of the item (from its queue, in order) placed at their play time. */
  const release = (item: Item, upTo: number): void => {
    if (item.startAt === null) return;
    let want = Math.min(upTo, item.released + item.queued) - item.released;
    if (want <= 0) return;
    const pieces: Int16Array[] = [];
    let total = 0;
    while (want > 0 && item.queue.length > 0) {
      const head = item.queue[0]!;
      if (head.length <= want) {
        pieces.push(head);
        item.queue.shift();
        want -= head.length;
        total += head.length;
      } else {
        pieces.push(head.subarray(0, want));
        item.queue[0] = head.subarray(want);
        total += want;
        want = 0;
      }
    }
    const pcm = pieces.length === 1 ? pieces[0]! : new Int16Array(total);
    if (pieces.length > 1) {
      let o = 0;
      for (const p of pieces) {
        pcm.set(p, o);
        o += p.length;
      }
    }
    const at = item.startAt + (item.released * 1000) / rate;
    item.queued -= total;
    item.released += total;
    emit(item.id, pcm, at);
  };

  const forget = (item: Item): void => {
    item.done = true;
    item.queue = [];
    item.queued = 0;
    items.splice(items.indexOf(item), 1);
  };

  return {
    received(itemId, pcm, at) {
      if (stopped.has(itemId)) return;
      const item = itemOf(itemId);
      if (item.done) return;
      if (!options.live && item.startAt === null) item.startAt = Math.max(at, lineFreeAt);
      item.queue.push(pcm);
      item.queued += pcm.length;
      if (!options.live) lineFreeAt = Math.max(lineFreeAt, item.startAt! + ((item.released + item.queued) * 1000) / rate);
    },
    firstPlayed(itemId, at) {
      if (!options.live) return;
      const item = itemOf(itemId);
      if (item.startAt === null) item.startAt = at;
    },
    ended(itemId) {
      const item = items.find((i) => i.id === itemId);
      if (item) item.complete = true;
    },
    cut(itemId, playedMs) {
      const item = items.find((i) => i.id === itemId);
      if (!item) return;
      // A flush before the first played report: the heard ms end at the flush.
      if (item.startAt === null) item.startAt = now() - playedMs;
      release(item, Math.round((playedMs * rate) / 1000));
      forget(item);
    },
    interrupted(at) {
      if (options.live) return; // a playing output flushes itself, and reports what it played (cut)
      for (const item of [...items]) {
        if (item.startAt === null) continue;
        release(item, Math.max(0, Math.floor(((at - item.startAt) * rate) / 1000)));
        forget(item);
        stopped.add(item.id);
        if (stopped.size > 64) stopped.delete(stopped.values().next().value!);
      }
      lineFreeAt = Math.min(lineFreeAt, at);
    },
    tick() {
      const t = now();
      for (const item of [...items]) {
        if (item.startAt === null) continue;
        const played = options.playedMs?.(item.id) ?? t - item.startAt;
        release(item, Math.floor((played * rate) / 1000));
        if (item.complete && item.queued === 0) forget(item);
      }
    },
    dispose() {
      this.tick();
      for (const item of [...items]) forget(item);
    },
  };
}
