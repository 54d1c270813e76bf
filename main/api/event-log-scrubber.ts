/**
 * Masks a key that a service spreads over several events of a run's raw event log (what is
 * stored in `run_event_chunks`, shown by the inspector and exported): `sk-ab` in one event's
 * delta and `c123` in the next are each harmless text to SecretScrubber.event(), yet together
 * they are the key. The pieces of one text sit at the same place in consecutive events' data, so
 * every event is read as its string leaves, each with a path (its JSON path, plus the
 * `index` / `output_index` / `content_index` / `item_id` of the objects on the way, so texts
 * streamed side by side are not joined; the `event:` name and data that is not JSON are a path
 * each). The leaves of one path are joined across events, as StreamScrubber joins deltas: a match
 * spanning events masks its part of every event it touches (each part becomes the mask, so the
 * inspector shows where the key was), and an event whose tail could still grow into a key is held
 * back until the next event of that path, or the end, settles it (or a writer that cannot wait
 * flushes it, the tail masked). Events leave in their order.
 */
import type { CapturedEvent } from '../../shared/contract/runs';
import { PARTIAL_TAIL_MIN, type SecretScrubber } from './secret-scrubber';

/** Sibling fields that tell apart texts streamed side by side (choices, tool calls, output items). */
const DISCRIMINATORS = ['index', 'output_index', 'content_index', 'item_id'] as const;

/** One string of one event: where it is, its text (each event already masked on its own), and how to write it back. */
interface Leaf {
  path: string;
  text: string;
  /** Ranges of `text` that are part of a key spanning events, in `text`'s coordinates. */
  masks: Array<[number, number]>;
  write(value: string): void;
}

/** An event not yet let go: it may still hold the start of a key. */
interface Held {
  event: CapturedEvent;
  /** Parsed data when it is JSON (its leaves write into it); undefined otherwise. */
  json: { value: unknown } | undefined;
  /** The data as it will be written when the data is not JSON. */
  data: string;
  name: string | undefined;
  leaves: Leaf[];
  /** How many paths' held tails reach into this event. */
  pins: number;
}

/** The tail of a path that could still grow into a key: a suffix of one leaf, then whole leaves. */
interface Piece {
  held: Held;
  leaf: Leaf;
  from: number;
}

type Json = Record<string, unknown> | unknown[];

function isJsonContainer(v: unknown): v is Json {
  return typeof v === 'object' && v !== null;
}

/** The string leaves of a parsed JSON value, with their paths; iterative (a deep answer cannot overflow the stack). */
function jsonLeaves(root: { value: unknown }): Leaf[] {
  const leaves: Leaf[] = [];
  // A path is built only for the containers and strings on the way (numbers, booleans and nulls have none).
  const stack: Array<{ parent: Json | { value: unknown }; key: string | number; at: string }> = [{ parent: root, key: 'value', at: '' }];
  while (stack.length > 0) {
    const { parent, key, at } = stack.pop()!;
    const value = (parent as Record<string | number, unknown>)[key];
    if (typeof value === 'string') {
      const path = `${at}${typeof key === 'number' ? `[${key}]` : `.${key}`}`;
      leaves.push({ path, text: value, masks: [], write: (v) => void ((parent as Record<string | number, unknown>)[key] = v) });
      continue;
    }
    if (!isJsonContainer(value)) continue;
    const path = `${at}${typeof key === 'number' ? `[${key}]` : `.${key}`}`;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ parent: value, key: i, at: path });
      continue;
    }
    let here = path;
    for (const d of DISCRIMINATORS) {
      const v = value[d];
      if (typeof v === 'number' || typeof v === 'string') here += `{${d}=${v}}`;
    }
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i >= 0; i--) stack.push({ parent: value, key: keys[i]!, at: here });
  }
  return leaves;
}

/** Tails kept across a flush: more paths than this held at once is a service playing games. */
const MAX_TAILS = 1024;

/** Data that may be JSON (an object, array or string); others are kept as text. */
const JSON_START = /^\s*[[{"]/;

export class EventLogScrubber {
  private readonly held: Held[] = [];
  private readonly tails = new Map<string, Piece[]>();

  constructor(private readonly scrubber: SecretScrubber) {}

  /** Takes the next event; returns the events that are now settled (masked), in order. */
  push(event: CapturedEvent): CapturedEvent[] {
    if (!this.scrubber.active) return [event];
    const held = this.hold(this.scrubber.event(event));
    this.held.push(held);
    for (const leaf of held.leaves) this.join(held, leaf);
    return this.release(false);
  }

  /** Whether an event is held back (its end could still start a key). */
  get holding(): boolean {
    return this.held.length > 0;
  }

  /**
   * What is held, let go now (the writer cannot wait longer: a crash would lose it). A held tail
   * of PARTIAL_TAIL_MIN characters or more is masked, as partial() masks a checkpoint; the tails
   * are still joined with the next events, so the rest of a key that comes later is masked there.
   */
  flush(): CapturedEvent[] {
    for (const [path, pieces] of this.tails) {
      const text = pieces.map((p) => p.leaf.text.slice(p.from)).join('');
      if (text.length >= PARTIAL_TAIL_MIN) for (const p of pieces) p.leaf.masks.push([p.from, p.leaf.text.length]);
      // The events go; their tail stays as bare text (no event, no parsed data kept alive by it).
      const detached: Held = { event: { t: 0, data: '' }, json: undefined, data: '', name: undefined, leaves: [], pins: 0 };
      this.tails.set(path, [{ held: detached, leaf: { path, text, masks: [], write: () => undefined }, from: 0 }]);
    }
    // A service can open a new path in every event: keep the newest tails only.
    for (const path of this.tails.keys()) {
      if (this.tails.size <= MAX_TAILS) break;
      this.tails.delete(path);
    }
    return this.release(true);
  }

  /** The log ended: what is held is let go (masked; nothing can complete a key any more). */
  end(): CapturedEvent[] {
    for (const pieces of this.tails.values()) for (const p of pieces) p.held.pins--;
    this.tails.clear();
    return this.release(true);
  }

  private hold(event: CapturedEvent): Held {
    const held: Held = { event, json: undefined, data: event.data, name: event.event, leaves: [], pins: 0 };
    if (event.event !== undefined) {
      held.leaves.push({ path: '@event', text: event.event, masks: [], write: (v) => void (held.name = v) });
    }
    let parsed: { value: unknown } | undefined;
    if (JSON_START.test(event.data)) {
      try {
        parsed = { value: JSON.parse(event.data) as unknown };
      } catch {
        parsed = undefined;
      }
    }
    if (parsed) {
      held.json = parsed;
      held.leaves.push(...jsonLeaves(parsed));
    } else {
      held.leaves.push({ path: '@data', text: event.data, masks: [], write: (v) => void (held.data = v) });
    }
    return held;
  }

  /** Joins `leaf` to its path's held tail: masks what spans the join, and keeps the new tail. */
  private join(held: Held, leaf: Leaf): void {
    const before = this.tails.get(leaf.path) ?? [];
    if (before.length === 0) {
      // The common case, kept cheap: nothing held on this path, so only this leaf's end matters.
      const at = this.scrubber.holdFrom(leaf.text);
      if (at < leaf.text.length) {
        held.pins++;
        this.tails.set(leaf.path, [{ held, leaf, from: at }]);
      }
      return;
    }
    const pieces: Piece[] = [...before, { held, leaf, from: 0 }];
    const starts: number[] = [];
    let joined = '';
    for (const p of pieces) {
      starts.push(joined.length);
      joined += p.leaf.text.slice(p.from);
    }
    // Each event was masked on its own: only a match that starts in the old tail is new.
    const tailLength = starts[starts.length - 1]!;
    let settled = 0;
    if (tailLength > 0) {
      for (const [a, b] of this.matches(joined, tailLength)) {
        settled = Math.max(settled, b);
        pieces.forEach((p, i) => {
          const from = Math.max(a, starts[i]!);
          const to = Math.min(b, starts[i + 1] ?? joined.length);
          if (from < to) p.leaf.masks.push([p.from + from - starts[i]!, p.from + to - starts[i]!]);
        });
      }
    }
    const at = Math.max(settled, this.scrubber.holdFrom(joined));
    const tail: Piece[] = [];
    pieces.forEach((p, i) => {
      const end = starts[i + 1] ?? joined.length;
      if (end <= at || end === starts[i]) return;
      tail.push({ held: p.held, leaf: p.leaf, from: p.from + Math.max(0, at - starts[i]!) });
    });
    for (const p of before) p.held.pins--;
    for (const p of tail) p.held.pins++;
    if (tail.length > 0) this.tails.set(leaf.path, tail);
    else this.tails.delete(leaf.path);
  }

  /** The ranges of `text` that are a form of a secret and start before `before`, merged. */
  private matches(whole: string, before: number): Array<[number, number]> {
    // A match starting before `before` ends within the longest form after it: a long leaf is not scanned whole.
    const text = whole.slice(0, before + (this.scrubber.forms[0]?.length ?? 0));
    const found: Array<[number, number]> = [];
    for (const form of this.scrubber.forms) {
      for (let i = text.indexOf(form); i !== -1 && i < before; i = text.indexOf(form, i + 1)) found.push([i, i + form.length]);
    }
    found.sort((x, y) => x[0] - y[0]);
    const merged: Array<[number, number]> = [];
    for (const r of found) {
      const last = merged[merged.length - 1];
      if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
      else merged.push([r[0], r[1]]);
    }
    return merged;
  }

  /** Lets go of the held events at the front that no tail reaches into (all of them at the end). */
  private release(all: boolean): CapturedEvent[] {
    const out: CapturedEvent[] = [];
    while (this.held.length > 0 && (all || this.held[0]!.pins <= 0)) out.push(this.settle(this.held.shift()!));
    return out;
  }

  /** The event with its masked ranges written back. */
  private settle(held: Held): CapturedEvent {
    let changed = false;
    for (const leaf of held.leaves) {
      if (leaf.masks.length === 0) continue;
      changed = true;
      leaf.write(masked(leaf.text, leaf.masks, this.scrubber.mask));
    }
    if (!changed) return held.event;
    const data = held.json ? JSON.stringify(held.json.value) : held.data;
    const { event: _name, ...rest } = held.event;
    return held.name === undefined ? { ...rest, data } : { ...rest, event: held.name, data };
  }
}

/** `text` with `ranges` (possibly overlapping) each replaced by `mask`. */
function masked(text: string, ranges: Array<[number, number]>, mask: string): string {
  const sorted = [...ranges].sort((x, y) => x[0] - y[0]);
  let out = '';
  let at = 0;
  for (const [a, b] of sorted) {
    if (b <= at) continue;
    if (a >= at) out += text.slice(at, a) + mask;
    at = Math.max(at, b);
  }
  return out + text.slice(at);
}

/** A whole log (a run read back), masked across its events. */
export function scrubEventLog(scrubber: SecretScrubber, events: readonly CapturedEvent[]): CapturedEvent[] {
  if (!scrubber.active) return [...events];
  const log = new EventLogScrubber(scrubber);
  const out: CapturedEvent[] = [];
  for (const e of events) out.push(...log.push(e));
  out.push(...log.end());
  return out;
}
