/**
 * Incremental Server-Sent Events parser (WHATWG HTML "event stream interpretation").
 * Linear time in the input whatever the chunking: a chunk is scanned once, and a line split over
 * many chunks is kept as parts and joined once when its terminator arrives. Bounded: a line, or
 * an event's data, longer than `maxChars` throws a BodyLimitError instead of growing (limits.ts).
 */
import { BodyLimitError, sseEventNotice } from './limits';

/** One dispatched event. `event` is null when the frame had no `event:` line. */
export interface SseEvent {
  event: string | null;
  data: string;
  /** The last event id seen on the stream so far (it persists across events, per WHATWG). */
  id: string | null;
  /** A `retry:` value given in this event's block, else null. */
  retry: number | null;
}

const LF = 10;
const CR = 13;

/**
 * Feed it chunks as they arrive; each push returns the events completed by that chunk.
 * Chunks may be strings or UTF-8 bytes (decoded incrementally, so a character split across
 * chunks is fine); use one kind per stream. Events are identical for any chunking.
 *
 * Deviation from WHATWG, on purpose: end() dispatches an event whose lines were all terminated
 * but which lacked the final blank line (servers that close right after `data: [DONE]\n`).
 * An unterminated last line is still discarded: it may be a truncated payload.
 */
export class SseParser {
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  private partial: string[] = [];
  private skipLf = false;
  private atStart = true;
  private eventType: string | null = null;
  private dataLines: string[] = [];
  private lastId: string | null = null;
  private retry: number | null = null;
  private out: SseEvent[] = [];
  /** Characters held in `partial` (a line not yet terminated) and in `dataLines`. */
  private partialChars = 0;
  private dataChars = 0;

  /** `maxChars`: the longest line, and the longest event data, it will hold (unbounded when omitted). */
  constructor(private readonly maxChars = Number.POSITIVE_INFINITY) {}

  /** Parses a chunk; returns the events it completed (possibly none). */
  push(chunk: string | Uint8Array): SseEvent[] {
    const text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    this.feed(text);
    return this.take();
  }

  /** Ends the stream: flushes the decoder and dispatches a pending complete event. */
  end(): SseEvent[] {
    this.feed(this.decoder.decode());
    this.partial = [];
    this.partialChars = 0;
    this.dispatch();
    return this.take();
  }

  private take(): SseEvent[] {
    if (this.out.length === 0) return [];
    const events = this.out;
    this.out = [];
    return events;
  }

  private feed(input: string): void {
    let text = input;
    if (text.length === 0) return;
    if (this.atStart) {
      this.atStart = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const len = text.length;
    let pos = 0;
    if (this.skipLf) {
      this.skipLf = false;
      if (len > 0 && text.charCodeAt(0) === LF) pos = 1;
    }
    // Next CR / LF positions are cached so each character is searched at most once per kind.
    let cr = text.indexOf('\r', pos);
    let lf = text.indexOf('\n', pos);
    while (pos < len) {
      if (cr !== -1 && cr < pos) cr = text.indexOf('\r', pos);
      if (lf !== -1 && lf < pos) lf = text.indexOf('\n', pos);
      if (cr === -1 && lf === -1) break;
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
      const piece = text.slice(pos, end);
      let line: string;
      if (this.partial.length > 0) {
        this.guard(this.partialChars + piece.length);
        this.partial.push(piece);
        line = this.partial.join('');
        this.partial = [];
        this.partialChars = 0;
      } else {
        this.guard(piece.length);
        line = piece;
      }
      pos = end + 1;
      if (text.charCodeAt(end) === CR) {
        if (pos < len) {
          if (text.charCodeAt(pos) === LF) pos++;
        } else {
          this.skipLf = true;
        }
      }
      this.line(line);
    }
    if (pos < len) {
      this.partialChars += len - pos;
      this.guard(this.partialChars);
      this.partial.push(pos === 0 ? text : text.slice(pos));
    }
  }

  private guard(chars: number): void {
    if (chars > this.maxChars) {
      this.partial = [];
      this.dataLines = [];
      throw new BodyLimitError(sseEventNotice(this.maxChars));
    }
  }

  private line(line: string): void {
    if (line.length === 0) {
      this.dispatch();
      return;
    }
    const colon = line.indexOf(':');
    if (colon === 0) return; // comment
    let field: string;
    let value: string;
    if (colon === -1) {
      field = line;
      value = '';
    } else {
      field = line.slice(0, colon);
      value = line.charCodeAt(colon + 1) === 32 ? line.slice(colon + 2) : line.slice(colon + 1);
    }
    switch (field) {
      case 'data':
        this.dataChars += value.length + 1;
        this.guard(this.dataChars);
        this.dataLines.push(value);
        break;
      case 'event':
        this.eventType = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retry = Number(value);
        break;
      default:
        break; // unknown fields are ignored, per spec
    }
  }

  private dispatch(): void {
    // WHATWG: an event with an empty data buffer is not dispatched (only its type is reset).
    if (this.dataLines.length > 0) {
      this.out.push({ event: this.eventType, data: this.dataLines.join('\n'), id: this.lastId, retry: this.retry });
    }
    this.dataLines = [];
    this.dataChars = 0;
    this.eventType = null;
    this.retry = null;
  }
}
