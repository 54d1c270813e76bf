/**
 * The call console's event log (pure): every message of the realtime socket both ways, as rows a
 * virtual list draws. Repeated deltas fold into one row (`response.output_audio.delta ×40`), so a
 * spoken answer is a handful of rows, not hundreds; memory is capped: only the newest `maxRows`
 * rows are held (the call's whole timeline stays in main's recording, read a page at a time from
 * History), and each held message is bounded (a base64 audio chunk is summarised, not kept).
 */

/** One message of the socket as the console sees it. */
export interface LogMessage {
  /** Milliseconds on the call's clock. */
  t: number;
  /** 'out': sent to the service; 'in': received from it. */
  direction: 'in' | 'out';
  /** The wire message (an object with a `type`), or its raw text when it was not JSON. */
  message: unknown;
}

export interface LogRow {
  /** Its number in the call, counted from 0 across every row ever made (stable when older rows go). */
  id: number;
  direction: 'in' | 'out';
  type: string;
  /** When its first and last message came. */
  t: number;
  tLast: number;
  /** Messages folded into it (1 for a message that does not fold). */
  count: number;
  /**
   * The first and the last message folded in, bounded (JSON on demand); `last` is null when count
   * is 1. While its fold is open `last` is the message itself (bounded when the fold closes, and by
   * `rowJson` when shown): bounding a copy of every folded delta was most of the page's garbage on
   * a busy call (minor GC pauses inside its long tasks).
   */
  first: unknown;
  last: unknown;
  /** What it folds on (type, direction, item): null for a row that never folds. */
  foldKey: string | null;
}

export interface EventLogOptions {
  /** Rows held in memory (the newest); older ones are counted in `droppedRows`. */
  maxRows: number;
  /** Longest string kept inside a held message; longer ones are summarised with their length. */
  maxString?: number;
}

export const DEFAULT_MAX_ROWS = 5_000;
export const DEFAULT_MAX_STRING = 512;

/** Messages that come in runs and fold: every `*.delta`, and the microphone's appends. */
export function isFoldable(type: string): boolean {
  return type.endsWith('.delta') || type === 'input_audio_buffer.append';
}

/** A message's `type` (`message` for one without, `text` for a raw non-JSON frame). */
export function messageType(message: unknown): string {
  if (typeof message === 'string') return 'text';
  if (message && typeof message === 'object' && typeof (message as { type?: unknown }).type === 'string') return (message as { type: string }).type;
  return 'message';
}

/**
 * What a run folds on: the same type, the same way, the same item (a new item or response starts
 * a new row, so a row never spans two answers).
 */
function foldKeyOf(direction: string, type: string, message: unknown): string | null {
  if (!isFoldable(type)) return null;
  const m = (message && typeof message === 'object' ? message : {}) as Record<string, unknown>;
  const item = typeof m.item_id === 'string' ? m.item_id : typeof m.response_id === 'string' ? m.response_id : '';
  return `${direction}|${type}|${item}`;
}

/** `message` with every string longer than `max` cut to a short head and its length (a base64 audio chunk, a long prompt). */
export function boundMessage(message: unknown, max: number = DEFAULT_MAX_STRING): unknown {
  if (typeof message === 'string') return message.length > max ? `${message.slice(0, Math.min(32, max))}… (${message.length.toLocaleString('en-US')} chars)` : message;
  if (Array.isArray(message)) return message.map((v) => boundMessage(v, max));
  if (message && typeof message === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(message)) out[k] = boundMessage(v, max);
    return out;
  }
  return message;
}

/**
 * The log of one call. Push messages as they come; `rows()` gives the held rows, oldest first.
 * A run of foldable messages stays open until a message that does not fold arrives, so the audio
 * and the transcript deltas of one answer (interleaved on the wire) fold into one row each.
 */
export class EventLog {
  readonly maxRows: number;
  readonly maxString: number;
  /** Rows dropped from memory (the oldest), and the messages they held. */
  droppedRows = 0;
  droppedMessages = 0;
  /** Messages pushed in all. */
  messages = 0;
  /** Messages per type, over the whole call (dropped rows included): the filter's choices. */
  readonly typeCounts = new Map<string, number>();
  /** The rows held, oldest first: one array, changed in place (rows() hands it out, uncopied). */
  private readonly held: LogRow[] = [];
  private nextId = 0;
  /** Open folds: fold key → its row. Cleared by any message that does not fold (their `last` bounded then). */
  private open = new Map<string, LogRow>();

  constructor(opts: EventLogOptions) {
    this.maxRows = Math.max(1, Math.floor(opts.maxRows));
    this.maxString = opts.maxString ?? DEFAULT_MAX_STRING;
  }

  /** Adds one message; answers the row it landed in (a new one, or the fold it joined). */
  push(entry: LogMessage): LogRow {
    const type = messageType(entry.message);
    this.messages++;
    this.typeCounts.set(type, (this.typeCounts.get(type) ?? 0) + 1);
    const key = foldKeyOf(entry.direction, type, entry.message);
    if (key === null) this.closeFolds();
    else {
      const row = this.open.get(key);
      if (row) {
        row.count++;
        row.tLast = entry.t;
        row.last = entry.message;
        return row;
      }
    }
    const row: LogRow = { id: this.nextId++, direction: entry.direction, type, t: entry.t, tLast: entry.t, count: 1, first: boundMessage(entry.message, this.maxString), last: null, foldKey: key };
    if (key !== null) this.open.set(key, row);
    this.held.push(row);
    if (this.held.length > this.maxRows) this.dropOldest();
    return row;
  }

  /** Ends the open runs: each one's last message is bounded once, now that no later one replaces it. */
  private closeFolds(): void {
    if (this.open.size === 0) return;
    for (const row of this.open.values()) if (row.last !== null) row.last = boundMessage(row.last, this.maxString);
    this.open.clear();
  }

  private dropOldest(): void {
    // shift() on an array of pointers is cheap in V8 (it trims the backing store's start in place,
    // or moves 5,000 pointers): far cheaper than the copy of every held row a reader needed before.
    const gone = this.held.shift()!;
    this.droppedRows++;
    this.droppedMessages += gone.count;
    if (gone.foldKey !== null && this.open.get(gone.foldKey) === gone) this.open.delete(gone.foldKey);
  }

  /** `n` messages said before this log began (a window that attached late): counted as gone, kept only in History. */
  noteEarlier(n: number): void {
    this.droppedMessages += n;
    this.messages += n;
  }

  /**
   * Rows held, oldest first: always the same array, changed in place as rows are added and dropped
   * (read it now, or copy it to keep it; a reader that caches on it also watches the log's version).
   * Late in a busy call the log is full and each message adds a row: a copy of the 5,000 held rows
   * per added row was the largest garbage of test/bench/realtime-event-log-chromium.ts's long tasks.
   */
  rows(): readonly LogRow[] {
    return this.held;
  }

  /** Rows held now. */
  get size(): number {
    return this.held.length;
  }

  /** Rows ever made (held and dropped): it moves when a row is added, not when a message folds into one. */
  get rowsMade(): number {
    return this.held.length + this.droppedRows;
  }

  /** The held row at `index` (0 = the oldest held). */
  at(index: number): LogRow | undefined {
    return index < 0 ? undefined : this.held[index];
  }
}

export interface LogFilter {
  /** Types shown; empty or absent: every type. */
  types?: ReadonlySet<string>;
  direction?: 'in' | 'out' | 'both';
  /** Case-insensitive text in the type (`audio`, `transcript`). */
  text?: string;
}

/** The rows a filter lets through, in order (`rows` itself when nothing is filtered). */
export function filterRows(rows: readonly LogRow[], filter: LogFilter): readonly LogRow[] {
  const text = filter.text?.trim().toLowerCase() ?? '';
  const types = filter.types && filter.types.size > 0 ? filter.types : null;
  const direction = filter.direction ?? 'both';
  if (!text && !types && direction === 'both') return rows;
  return rows.filter((r) => (direction === 'both' || r.direction === direction) && (!types || types.has(r.type)) && (!text || r.type.toLowerCase().includes(text)));
}

/** How a row reads in the list: its type, and ×N when messages folded into it. */
export function rowLabel(row: LogRow): string {
  return row.count > 1 ? `${row.type} ×${row.count}` : row.type;
}

/** A row's JSON on demand: the message, or for a fold the first and the last with the count. */
export function rowJson(row: LogRow): string {
  // `last` is bounded again: an open fold holds its last message as it came (bounding is idempotent).
  const body = row.count > 1 ? { folded: row.count, from_ms: row.t, to_ms: row.tLast, first: row.first, last: boundMessage(row.last) } : row.first;
  return JSON.stringify(body, null, 2);
}

/** Messages as JSON Lines: `{t, direction, message}` each, in the order given. */
export function toJsonl(messages: Iterable<LogMessage>): string {
  let out = '';
  for (const m of messages) out += `${JSON.stringify({ t: m.t, direction: m.direction, message: m.message })}\n`;
  return out;
}
