import type { RealtimeTranscriptEntry } from './snapshot';

/**
 * The snapshot's transcript entries by item id, kept beside the array (keyed by the array itself,
 * so the snapshot stays plain data for IPC and structuredClone). A long call holds 2,000 entries
 * and every transcript delta looks its entry up: a search of the array per message was the fold's
 * cost on a busy call (test/bench/realtime-event-log-chromium.ts). The index notes the array's
 * length and ends; an array changed by anyone else (a copy, an edit) is indexed again, once.
 */
export interface TranscriptIndex {
  byId: Map<string, RealtimeTranscriptEntry>;
  length: number;
  first: RealtimeTranscriptEntry | undefined;
  last: RealtimeTranscriptEntry | undefined;
}
const transcriptIndexes = new WeakMap<RealtimeTranscriptEntry[], TranscriptIndex>();

export function transcriptIndex(list: RealtimeTranscriptEntry[]): TranscriptIndex {
  const known = transcriptIndexes.get(list);
  if (known && known.length === list.length && known.first === list[0] && known.last === list[list.length - 1]) return known;
  const byId = new Map<string, RealtimeTranscriptEntry>();
  // The first entry of an id wins, as the array search did.
  for (let i = list.length - 1; i >= 0; i--) byId.set(list[i]!.itemId, list[i]!);
  const index = { byId, length: list.length, first: list[0], last: list[list.length - 1] };
  transcriptIndexes.set(list, index);
  return index;
}
