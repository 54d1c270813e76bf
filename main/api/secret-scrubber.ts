/**
 * The one scrubber for what comes back from a service: it knows a connection's secrets and masks
 * every form in which a service, or a proxy in front of it, may echo one: the raw key (so also
 * `Bearer <key>`), JSON-escaped, URL-encoded, hex (lower or upper case), and base64 / base64url
 * with or without padding, including the key inside a longer base64 text
 * (`Basic base64("user:" + key)`). Everything the client returns passes it (client.ts), streamed
 * text is masked across deltas (`stream()`), a run's raw event log across events
 * (event-log-scrubber.ts), and the log file masks the same forms (host/redact.ts).
 */

/** What a masked secret reads as, in records and on the page. */
export const SECRET_MASK = '***';

/** Shorter secrets are not masked by value: their forms would blank ordinary words. */
export const MIN_SECRET_LENGTH = 8;

/**
 * The base64 characters that depend only on `bytes` when they sit `offset` (0-2) bytes into a
 * longer encoded text: the first and last characters also carry bits of their neighbours.
 */
function base64Core(bytes: Buffer, offset: number): string {
  const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
  const first = Math.ceil((offset * 8) / 6);
  const end = Math.floor(((offset + bytes.length) * 8) / 6);
  return encoded.slice(first, end);
}

/** Every form of `secret` to mask, longest first (none for a secret under MIN_SECRET_LENGTH). */
export function secretForms(secret: string): string[] {
  if (secret.length < MIN_SECRET_LENGTH) return [];
  const bytes = Buffer.from(secret, 'utf8');
  const forms = new Set<string>([secret]);
  const json = JSON.stringify(secret).slice(1, -1);
  const jsonSlashes = json.replace(/\//g, '\\/');
  // Escaped once more: a JSON text quoted inside another one (an error quoting a request body).
  forms.add(json).add(jsonSlashes).add(JSON.stringify(jsonSlashes).slice(1, -1));
  const url = encodeURIComponent(secret);
  forms.add(url).add(url.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()));
  const padded = bytes.toString('base64');
  const urlSafe = (b64: string): string => b64.replace(/\+/g, '-').replace(/\//g, '_');
  forms.add(padded).add(padded.replace(/=+$/, '')).add(urlSafe(padded)).add(urlSafe(padded).replace(/=+$/, ''));
  for (const offset of [0, 1, 2]) {
    const core = base64Core(bytes, offset);
    forms.add(core).add(urlSafe(core));
  }
  // Hex, as a debug dump or a digest-like field prints bytes; byte-aligned, so also inside longer hex.
  const hex = bytes.toString('hex');
  forms.add(hex).add(hex.toUpperCase());
  return [...forms].filter((f) => f.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}

/** The shortest held-back tail partial() (and EventLogScrubber.flush()) masks. */
export const PARTIAL_TAIL_MIN = 4;

/** A JSON escape that can spell part of a key so that no text form matches it. */
const ESCAPE_THAT_HIDES = /\\[u/]/;

type Container = Record<string, unknown> | unknown[];

function isContainer(v: unknown): v is Container {
  if (Array.isArray(v)) return true;
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** One container being walked: its entries, how far, and its copy once something changed. */
interface Frame {
  src: Container;
  keys: string[];
  i: number;
  out: Container | null;
}

/** Masks the secrets of one connection (or of all saved ones: the log file's set). */
export class SecretScrubber {
  /** A scrubber that knows no secret (a connection without a key). */
  static readonly NONE = new SecretScrubber([]);
  /** Every form of every secret, longest first. */
  readonly forms: readonly string[];
  private readonly firstChars: ReadonlySet<string>;
  /** Every character of every form. */
  private readonly formChars: ReadonlySet<string>;
  /** Every proper prefix of every form: what holdFrom() looks a text's tail up in. */
  private readonly prefixes: ReadonlySet<string>;
  private readonly longest: number;

  /** `mask` replaces each form found (the log writes `[redacted]`). */
  constructor(
    secrets: Iterable<string | null | undefined>,
    readonly mask: string = SECRET_MASK,
  ) {
    const forms = new Set<string>();
    for (const secret of secrets) if (secret) for (const f of secretForms(secret)) forms.add(f);
    this.forms = [...forms].sort((a, b) => b.length - a.length);
    this.firstChars = new Set(this.forms.map((f) => f[0]!));
    const prefixes = new Set<string>();
    for (const f of this.forms) for (let n = 1; n < f.length; n++) prefixes.add(f.slice(0, n));
    this.prefixes = prefixes;
    this.formChars = new Set(this.forms.join(''));
    this.longest = this.forms[0]?.length ?? 0;
  }

  /** Whether there is anything to mask. */
  get active(): boolean {
    return this.forms.length > 0;
  }

  /** Whether `text` holds any form of a secret (scans in tests, cheap checks). */
  finds(text: string): boolean {
    return this.forms.some((f) => text.includes(f));
  }

  /** `text` with every form of every secret replaced by SECRET_MASK. */
  text(text: string): string {
    let out = text;
    for (const form of this.forms) if (out.includes(form)) out = out.split(form).join(this.mask);
    return out;
  }

  /**
   * A copy of a JSON-like value with every string (object keys too) masked. Unchanged parts are
   * shared, and a value with nothing to mask is returned as it is. The walk is iterative, so a
   * service's deeply nested answer cannot overflow the stack; class instances (bytes) pass as is.
   */
  value<T>(value: T): T {
    return this.walk(value, (text) => this.text(text));
  }

  /**
   * value() for what is still arriving (a run's output checkpointed mid-stream): the end of each
   * string that could still grow into a form is masked too, as the next event may complete a key
   * there. A tail under PARTIAL_TAIL_MIN characters is left: it cannot be told from an ordinary
   * word's end, and that much of a key is no more than its public prefix.
   */
  partial<T>(value: T): T {
    return this.walk(value, (text) => {
      const masked = this.text(text);
      const at = this.holdFrom(masked);
      return masked.length - at >= PARTIAL_TAIL_MIN ? masked.slice(0, at) + this.mask : masked;
    });
  }

  /** `value` with `text` applied to every string in it (object keys too); see value(). */
  private walk<T>(value: T, text: (s: string) => string): T {
    if (!this.active) return value;
    if (typeof value === 'string') return text(value) as T;
    if (!isContainer(value)) return value;
    const frame = (src: Container): Frame => ({ src, keys: Array.isArray(src) ? [] : Object.keys(src), i: 0, out: null });
    const stack: Frame[] = [frame(value)];
    let result: unknown = value;
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const length = Array.isArray(top.src) ? top.src.length : top.keys.length;
      if (top.i < length) {
        const child = this.entry(top);
        if (isContainer(child)) {
          stack.push(frame(child));
          continue;
        }
        this.set(top, typeof child === 'string' ? text(child) : child, text);
        continue;
      }
      stack.pop();
      const done = top.out ?? top.src;
      const parent = stack[stack.length - 1];
      if (parent) this.set(parent, done, text);
      else result = done;
    }
    return result as T;
  }

  /**
   * An SSE (or captured) event with every field masked: its `event:` name and `id` as text, its
   * data as text too. Data with `\u` or `\/` escapes is also parsed: JSON can spell a key with
   * those in ways no text form matches (the other escapes, `\"` and `\\`, are in the JSON-escaped
   * forms, and a key has no control characters); such data is re-serialised masked. Other events
   * keep their exact text and are not parsed here: almost every text delta has a `\n` or `\"`,
   * and the family modules parse each event after this. A key split over several events is for
   * EventLogScrubber (what is recorded) and StreamScrubber (what is assembled).
   */
  event<E extends { data: string; event?: string | null; id?: string | null }>(event: E): E {
    if (!this.active) return event;
    let data = this.text(event.data);
    if (ESCAPE_THAT_HIDES.test(data)) {
      try {
        const parsed: unknown = JSON.parse(data);
        const masked = this.value(parsed);
        if (masked !== parsed) data = JSON.stringify(masked);
      } catch {
        // Not JSON: the text masking above is all there is to do.
      }
    }
    const name = typeof event.event === 'string' ? this.text(event.event) : event.event;
    const id = typeof event.id === 'string' ? this.text(event.id) : event.id;
    if (data === event.data && name === event.event && id === event.id) return event;
    const out = { ...event, data };
    if (name !== event.event) out.event = name;
    if (id !== event.id) out.id = id;
    return out;
  }

  /** A masker for text that arrives in pieces (stream deltas): a key split across them is masked too. */
  stream(): StreamScrubber {
    return new StreamScrubber(this);
  }

  /**
   * Where the held-back tail of `text` starts: the first position from which the rest could
   * still grow into a form (a proper prefix of one). text.length when nothing needs holding.
   */
  holdFrom(text: string): number {
    // A held tail is made of the forms' characters only: no need to look past the last other one.
    let from = text.length;
    const lowest = Math.max(0, text.length - this.longest + 1);
    while (from > lowest && this.formChars.has(text[from - 1]!)) from--;
    for (let i = from; i < text.length; i++) {
      if (this.firstChars.has(text[i]!) && this.prefixes.has(text.slice(i))) return i;
    }
    return text.length;
  }

  private entry(frame: Frame): unknown {
    const src = frame.src as Record<string, unknown>;
    return Array.isArray(frame.src) ? frame.src[frame.i] : src[frame.keys[frame.i]!];
  }

  /** Stores the (possibly masked) current entry of `frame` and moves on; copies on first change. */
  private set(frame: Frame, next: unknown, text: (s: string) => string): void {
    const index = frame.i++;
    if (Array.isArray(frame.src)) {
      if (next !== frame.src[index]) ((frame.out ??= frame.src.slice()) as unknown[])[index] = next;
      return;
    }
    const key = frame.keys[index]!;
    const newKey = text(key);
    if (next === frame.src[key] && newKey === key) return;
    const out = (frame.out ??= { ...frame.src }) as Record<string, unknown>;
    if (newKey !== key) delete out[key];
    out[newKey] = next;
  }
}

/**
 * Masks text that arrives in pieces. `push` returns what is safe to show now: everything but a
 * tail that could be the start of a secret's form (usually nothing is held); `end` returns the
 * rest. Pieces joined before masking, so a key split across any number of them is caught.
 */
export class StreamScrubber {
  private held = '';

  constructor(private readonly scrubber: SecretScrubber) {}

  push(piece: string): string {
    if (!this.scrubber.active) return piece;
    const text = this.scrubber.text(this.held + piece);
    const at = this.scrubber.holdFrom(text);
    this.held = text.slice(at);
    return text.slice(0, at);
  }

  /** The held tail (masked): the stream ended, so it cannot grow into a secret any more. */
  end(): string {
    const rest = this.held;
    this.held = '';
    return rest;
  }
}
