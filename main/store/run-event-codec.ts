/**
 * How a run's raw SSE events are kept on disk: a chunk of consecutive events as JSON lines
 * (one CapturedEvent per line), brotli-compressed. Brotli's built-in dictionary knows the JSON and
 * web vocabulary these frames are made of, so even a chunk of a few events written 250 ms into a
 * stream shrinks to a fraction (see test/bench/history-size.ts). Migration 0008 writes the same
 * format, so a change here needs a new format, not an edit.
 */
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import type { CapturedEvent } from '../../shared/contract/runs';

/** Quality 5 compresses these chunks within a few % of quality 11 at a tenth of the time. */
const QUALITY = 5;

/** Compresses `events` into one chunk's bytes. */
export function encodeEventChunk(events: readonly CapturedEvent[]): Buffer {
  const lines = events.map((e) => JSON.stringify(e)).join('\n');
  return brotliCompressSync(Buffer.from(lines, 'utf8'), {
    params: { [constants.BROTLI_PARAM_QUALITY]: QUALITY, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
  });
}

/** The events of one chunk, in order. */
export function decodeEventChunk(data: Uint8Array): CapturedEvent[] {
  const text = brotliDecompressSync(data).toString('utf8');
  return text === '' ? [] : text.split('\n').map((line) => JSON.parse(line) as CapturedEvent);
}
