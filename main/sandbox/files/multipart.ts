/**
 * A streaming multipart/form-data parser (RFC 7578). It is fed the body chunk by chunk and returns,
 * for each chunk, what it found: a part's headers, pieces of its body, its end. It never holds more
 * than one chunk plus a delimiter's length of a part's body, so a 1 GiB upload goes to disk in
 * bounded memory. The caller awaits its own writes between chunks, which is the back-pressure.
 */

export type MultipartEvent =
  | { type: 'part'; headers: Record<string, string> }
  | { type: 'data'; data: Buffer }
  | { type: 'part-end' }
  | { type: 'done' };

/** A body that is not well-formed multipart; the message says what is wrong. */
export class MultipartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MultipartError';
  }
}

/** Headers of one part are small; this bounds a body that never ends its header block. */
const MAX_HEADER_BYTES = 16 * 1024;
const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

type State = 'preamble' | 'after-boundary' | 'headers' | 'body' | 'epilogue';

/** The boundary parameter of a `multipart/form-data` Content-Type, or an error saying what is missing. */
export function boundaryOf(contentType: string | undefined): string {
  if (!contentType || !/^multipart\/form-data\b/i.test(contentType)) {
    throw new MultipartError(
      `Expected a multipart/form-data body${contentType ? `, got Content-Type "${contentType}"` : ' (the Content-Type header is missing)'}.`,
    );
  }
  const match = /;\s*boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary || boundary.length > 70) throw new MultipartError('The multipart/form-data Content-Type has no usable boundary parameter.');
  return boundary;
}

export class MultipartParser {
  private state: State = 'preamble';
  private buffer: Buffer = Buffer.alloc(0);
  /** `--boundary` at the very start; `\r\n--boundary` everywhere else. */
  private readonly first: Buffer;
  private readonly delimiter: Buffer;

  constructor(boundary: string) {
    this.first = Buffer.from(`--${boundary}`);
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
  }

  /** Feeds one chunk; returns the events it completed. Throws MultipartError on a malformed body. */
  write(chunk: Buffer): MultipartEvent[] {
    const events: MultipartEvent[] = [];
    if (this.state === 'body' && this.buffer.length > 0 && chunk.length >= this.delimiter.length) {
      // The kept tail is body unless a delimiter starts in it, and such a delimiter would end
      // within the chunk's first bytes: check just those, so big uploads are not copied chunk by chunk.
      const seam = Buffer.concat([this.buffer, chunk.subarray(0, this.delimiter.length)]);
      if (seam.indexOf(this.delimiter) < 0) {
        events.push({ type: 'data', data: this.buffer });
        this.buffer = Buffer.alloc(0);
      }
    }
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    while (this.step(events));
    return events;
  }

  /** The body ended: throws unless the closing boundary was seen. */
  end(): void {
    if (this.state !== 'epilogue') {
      throw new MultipartError(
        this.state === 'body' || this.state === 'headers'
          ? 'The multipart body ended in the middle of a part (no closing boundary): the upload was cut short.'
          : 'The multipart body has no closing boundary.',
      );
    }
  }

  /** Advances as far as the buffer allows; false when more input is needed. */
  private step(events: MultipartEvent[]): boolean {
    switch (this.state) {
      case 'preamble': {
        // The body may start with the boundary or with a preamble ending in CRLF + boundary.
        const atStart = this.buffer.length >= this.first.length && this.buffer.subarray(0, this.first.length).equals(this.first);
        if (atStart) return this.consume(this.first.length, 'after-boundary');
        const at = this.buffer.indexOf(this.delimiter);
        if (at < 0) {
          if (this.buffer.length > MAX_HEADER_BYTES) throw new MultipartError('The multipart body does not start with its boundary.');
          return false;
        }
        return this.consume(at + this.delimiter.length, 'after-boundary');
      }
      case 'after-boundary': {
        if (this.buffer.length < 2) return false;
        if (this.buffer[0] === 0x2d && this.buffer[1] === 0x2d) {
          events.push({ type: 'done' });
          this.buffer = Buffer.alloc(0);
          this.state = 'epilogue';
          return false;
        }
        // Transport padding (spaces, tabs) may follow a boundary before its CRLF.
        const eol = this.buffer.indexOf(CRLF);
        if (eol < 0) return this.needMore(76);
        if (this.buffer.subarray(0, eol).toString('latin1').trim() !== '') throw new MultipartError('A multipart boundary line has extra characters after it.');
        return this.consume(eol + 2, 'headers');
      }
      case 'headers': {
        // A part with no headers starts straight away with CRLF.
        const empty = this.buffer.length >= 2 && this.buffer[0] === 0x0d && this.buffer[1] === 0x0a;
        const end = empty ? -2 : this.buffer.indexOf(HEADER_END);
        if (!empty && end < 0) return this.needMore(MAX_HEADER_BYTES, 'The headers of a multipart part are too long (over 16 KB).');
        const headers = empty ? {} : parseHeaders(this.buffer.subarray(0, end).toString('utf8'));
        events.push({ type: 'part', headers });
        return this.consume(end + 4, 'body');
      }
      case 'body': {
        const at = this.buffer.indexOf(this.delimiter);
        if (at >= 0) {
          if (at > 0) events.push({ type: 'data', data: this.buffer.subarray(0, at) });
          events.push({ type: 'part-end' });
          return this.consume(at + this.delimiter.length, 'after-boundary');
        }
        // Everything except a tail that could be the start of the delimiter is body.
        const safe = this.buffer.length - (this.delimiter.length - 1);
        if (safe > 0) {
          events.push({ type: 'data', data: this.buffer.subarray(0, safe) });
          this.buffer = this.buffer.subarray(safe);
        }
        return false;
      }
      case 'epilogue':
        this.buffer = Buffer.alloc(0);
        return false;
    }
  }

  private consume(n: number, next: State): boolean {
    this.buffer = this.buffer.subarray(n);
    this.state = next;
    return true;
  }

  private needMore(limit: number, message = 'A multipart boundary line is malformed.'): boolean {
    if (this.buffer.length > limit) throw new MultipartError(message);
    return false;
  }
}

function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new MultipartError(`A multipart part has a malformed header line: "${line.slice(0, 80)}".`);
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/**
 * A parameter value as clients write it, back to what the user typed. Two escapings meet here:
 *
 * - Browsers and plain `curl -F` follow the HTML standard (multipart/form-data encoding
 *   algorithm): in a name or filename they write `"` as `%22`, CR as `%0D` and LF as `%0A`, and
 *   nothing else. Exactly those three are decoded (either case of hex digit). A user's name that
 *   really contains the text `%22` arrives the same way and reads as `"`: the standard's own
 *   ambiguity, which no server can undo.
 * - `curl --form-escape` and RFC 7578's quoted-string write `"` as `\"` and `\` as `\\`. Only
 *   those two pairs are escapes; any other backslash is kept as it is, because browsers send a
 *   backslash in a name raw (`..\evil.txt`). A name with a backslash left in it is then refused
 *   by the filename rule (rules.ts), as a path.
 */
function unescapeValue(quoted: string | undefined, token: string): string {
  const raw = quoted !== undefined ? quoted.replace(/\\(["\\])/g, '$1') : token.trim();
  return raw.replace(/%(22|0d|0a)/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The parameters of a `Content-Disposition: form-data; name="x"; filename="y"` header (`filename*` wins). */
export function dispositionOf(header: string | undefined): { name?: string; filename?: string } {
  if (!header || !/^\s*form-data\b/i.test(header)) return {};
  const params: Record<string, string> = {};
  const re = /;\s*([\w*.-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (let m = re.exec(header); m; m = re.exec(header)) {
    const key = m[1].toLowerCase();
    params[key] = key.endsWith('*') ? m[3].trim() : unescapeValue(m[2], m[3]);
  }
  let filename = params.filename;
  const extended = params['filename*'];
  if (extended) {
    const ext = /^([\w-]+)'[^']*'(.*)$/.exec(extended);
    if (ext) {
      try {
        filename = decodeURIComponent(ext[2]);
      } catch {
        throw new MultipartError(`The filename* parameter of a part is not valid percent-encoding: "${extended.slice(0, 80)}".`);
      }
    }
  }
  return { name: params.name, filename };
}
