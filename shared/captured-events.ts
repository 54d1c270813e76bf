/**
 * Reads any captured event the same way, whether an SSE run recorded it before events had a
 * direction and a kind, or a live session recorded it with both: an event without a direction
 * came from the service, and its kind follows from its data.
 */
import type { CapturedEvent, EventDirection, EventKind } from './contract/runs';

/** Which way the event went ('in' for every SSE recording). */
export function eventDirection(event: CapturedEvent): EventDirection {
  return event.direction ?? 'in';
}

/** The event's kind: as recorded, else `audio` with a track reference, `json` when its data parses, `text` otherwise. */
export function eventKind(event: CapturedEvent): EventKind {
  if (event.kind) return event.kind;
  if (event.audio) return 'audio';
  return looksLikeJson(event.data) ? 'json' : 'text';
}

function looksLikeJson(data: string): boolean {
  const first = data.trimStart()[0];
  if (first !== '{' && first !== '[' && first !== '"') return false;
  try {
    JSON.parse(data);
    return true;
  } catch {
    return false;
  }
}
