/**
 * The HTTP `Range` header (RFC 9110 §14) for one byte range, as media elements send it to seek:
 * `bytes=a-b` (first-last), `bytes=a-` (from a to the end) and `bytes=-n` (the last n bytes).
 * Pure, so both shells' media servers (browser mode's HTTP route, Electron's protocol handler)
 * and the sandbox's files, images and videos answer a seek the same way.
 */

/** What to answer: the whole body (no usable Range), one range (206), or 416. */
export type RangeDecision =
  | { kind: 'full' }
  | { kind: 'partial'; start: number; end: number }
  | { kind: 'unsatisfiable' };

/** `range-unit "=" range-set` (RFC 9110 §14.1): a token, "=", then the ranges, no spaces around "=". */
const SPECIFIER = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+)=(.*)$/;
/** One `int-range` (`first-[last]`) or `suffix-range` (`-length`): digits only, no whitespace inside. */
const INT_RANGE = /^(\d+)-(\d*)$/;
const SUFFIX_RANGE = /^-(\d+)$/;

type Spec = { first: bigint; last: bigint | null } | { suffix: bigint };

/** The ranges of a `bytes=` value, or null when it is not a valid `ranges-specifier` (RFC 9110 §14.1.1). */
function parseByteRanges(header: string): Spec[] | null {
  const m = SPECIFIER.exec(header.trim());
  if (!m || m[1].toLowerCase() !== 'bytes') return null;
  // `1#range-spec`: elements separated by OWS "," OWS; empty elements are allowed and skipped (§5.6.1).
  const items = m[2].split(/[ \t]*,[ \t]*/).filter((item) => item !== '');
  if (items.length === 0) return null;
  const specs: Spec[] = [];
  for (const item of items) {
    const int = INT_RANGE.exec(item);
    if (int) {
      // BigInt, not Number: positions past 2^53 must still compare exactly (they are past any body).
      const first = BigInt(int[1]);
      const last = int[2] === '' ? null : BigInt(int[2]);
      // A last-pos below its first-pos makes the whole field invalid.
      if (last !== null && last < first) return null;
      specs.push({ first, last });
      continue;
    }
    const suffix = SUFFIX_RANGE.exec(item);
    if (!suffix) return null;
    specs.push({ suffix: BigInt(suffix[1]) });
  }
  return specs;
}

/** A satisfiable spec's bytes `[start, end]` (inclusive) within `size`, else null. */
function satisfy(spec: Spec, size: number): { start: number; end: number } | null {
  const total = BigInt(size);
  if ('suffix' in spec) {
    if (spec.suffix === 0n || total === 0n) return null;
    return { start: Number(spec.suffix >= total ? 0n : total - spec.suffix), end: size - 1 };
  }
  if (spec.first >= total) return null;
  const end = spec.last === null || spec.last >= total ? total - 1n : spec.last;
  return { start: Number(spec.first), end: Number(end) };
}

/**
 * Decides how to answer `header` for a body of `size` bytes, strictly per RFC 9110 §14: a missing
 * header, another unit or a value that is not a valid `ranges-specifier` (whitespace inside a
 * range, a last-pos below its first-pos, anything but digits) is ignored and gives `full`; a set
 * of ranges none of which is satisfiable gives `unsatisfiable` (416), however large the numbers
 * (they are compared exactly, not as doubles); one satisfiable range gives `partial`; several, of
 * which some are satisfiable, give `full` (a 200 with the whole body is allowed and is what a
 * player copes with best; no multipart/byteranges). `end` is inclusive and clamped to the body.
 */
export function decideRange(header: string | null | undefined, size: number): RangeDecision {
  if (!header) return { kind: 'full' };
  const specs = parseByteRanges(header);
  if (!specs) return { kind: 'full' };
  const satisfiable = specs.map((spec) => satisfy(spec, size)).filter((r) => r !== null);
  if (satisfiable.length === 0) return { kind: 'unsatisfiable' };
  if (specs.length > 1) return { kind: 'full' };
  return { kind: 'partial', ...satisfiable[0] };
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
