/**
 * The HTTP `Range` header (RFC 9110 §14) for one byte range, as media elements send it to seek:
 * `bytes=a-b` (first-last), `bytes=a-` (from a to the end) and `bytes=-n` (the last n bytes).
 * Pure, so both shells' media servers (browser mode's HTTP route, Electron's protocol handler)
 * answer a seek the same way.
 */

/** What to answer: the whole body (no usable Range), one range (206), or 416. */
export type RangeDecision =
  | { kind: 'full' }
  | { kind: 'partial'; start: number; end: number }
  | { kind: 'unsatisfiable' };

const SPEC = /^bytes=(\d*)-(\d*)$/;

/**
 * Decides how to answer `header` for a body of `size` bytes. A missing header, another unit, a
 * malformed value or several ranges give `full` (RFC 9110 lets a server ignore Range, and a
 * 200 with the whole body is what a player copes with best); a range starting at or past the
 * end, or an empty suffix, gives `unsatisfiable`. `end` is inclusive and clamped to the body.
 */
export function decideRange(header: string | null | undefined, size: number): RangeDecision {
  if (!header) return { kind: 'full' };
  const match = SPEC.exec(header.trim().replace(/\s+/g, ''));
  if (!match) return { kind: 'full' };
  const [, first, last] = match;
  if (first === '' && last === '') return { kind: 'full' };
  if (first === '') {
    const suffix = Number(last);
    if (!Number.isSafeInteger(suffix)) return { kind: 'full' };
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Number(last);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return { kind: 'full' };
  // first > last is a syntactically invalid range: ignore the header.
  if (last !== '' && end < start) return { kind: 'full' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end: Math.min(end, size - 1) };
}

/** The status and headers of a GET/HEAD answer for a body of `size` bytes of type `mime`. */
export function rangeResponseHead(
  header: string | null | undefined,
  size: number,
  mime: string,
): { status: 200 | 206 | 416; headers: Record<string, string>; start: number; end: number } {
  const decision = decideRange(header, size);
  const base = { 'Accept-Ranges': 'bytes', 'Content-Type': mime };
  if (decision.kind === 'unsatisfiable') {
    return { status: 416, headers: { 'Accept-Ranges': 'bytes', 'Content-Range': `bytes */${size}`, 'Content-Length': '0' }, start: 0, end: -1 };
  }
  if (decision.kind === 'full') return { status: 200, headers: { ...base, 'Content-Length': String(size) }, start: 0, end: size - 1 };
  const { start, end } = decision;
  return {
    status: 206,
    headers: { ...base, 'Content-Length': String(end - start + 1), 'Content-Range': `bytes ${start}-${end}/${size}` },
    start,
    end,
  };
}
