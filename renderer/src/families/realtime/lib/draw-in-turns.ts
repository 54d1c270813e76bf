/**
 * Draws the parts of a busy view one a frame, in turns, each only when it changed and no more often
 * than its least interval (pure: the clock, the frame and the timer are given).
 *
 * The call console's parts (its log, its state, its latency panel) change with every message of a
 * call, hundreds a second. Drawing every part that changed in each frame gave a frame the whole
 * console's script, style, layout and paint at once: over 50 ms at a thousand messages a second
 * (test/bench/realtime-event-log-chromium.ts, "arrive"). In turns, a frame draws one part; a part
 * changed many times between its frames is drawn once, as it is then.
 */
export interface DrawInTurnsOptions<P extends string> {
  /** The parts, in the order they take turns. */
  parts: readonly P[];
  /** The least time between two draws of a part, in ms (none: whenever it is its turn). */
  minIntervalMs?: Partial<Record<P, number>>;
  /** Draws one part (it may say that another changed: `changed()` from here is drawn in a later frame). */
  draw: (part: P) => void;
  now: () => number;
  /** Runs `fn` in the next frame (requestAnimationFrame). */
  frame: (fn: () => void) => void;
  /** Runs `fn` after `ms` (setTimeout). */
  later: (fn: () => void, ms: number) => void;
}

export interface DrawInTurns<P extends string> {
  /** `part` changed: it is drawn in a frame to come, in its turn. */
  changed: (part: P) => void;
}

export function drawInTurns<P extends string>(options: DrawInTurnsOptions<P>): DrawInTurns<P> {
  const { parts } = options;
  const dirty = new Set<P>();
  const drawnAt = new Map<P, number>();
  let last = parts.length - 1;
  let frameQueued = false;
  let waking = false;

  const minOf = (part: P) => options.minIntervalMs?.[part] ?? 0;
  /** How long `part` has yet to wait before it may be drawn (0: now). */
  const waitOf = (part: P, t: number) => Math.max(0, (drawnAt.get(part) ?? -Infinity) + minOf(part) - t);

  function flush(): void {
    frameQueued = false;
    const t = options.now();
    for (let i = 1; i <= parts.length; i++) {
      const turn = (last + i) % parts.length;
      const part = parts[turn]!;
      if (!dirty.has(part) || waitOf(part, t) > 0) continue;
      last = turn;
      dirty.delete(part);
      drawnAt.set(part, t);
      options.draw(part);
      break;
    }
    schedule();
  }

  function schedule(): void {
    if (frameQueued || dirty.size === 0) return;
    const t = options.now();
    const wait = Math.min(...[...dirty].map((part) => waitOf(part, t)));
    if (wait <= 0) {
      frameQueued = true;
      options.frame(flush);
    } else if (!waking) {
      // Only parts that must wait are left: a timer, not a frame callback each frame meanwhile.
      waking = true;
      options.later(() => {
        waking = false;
        schedule();
      }, wait);
    }
  }

  return {
    changed(part) {
      dirty.add(part);
      schedule();
    },
  };
}
