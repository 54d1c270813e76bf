/**
 * A session's timeline is its events and its marks in one order: a mark recorded after `k`
 * events sits just before event `k` (marks are ordered by that index). Marks are few (a handful
 * per turn) and all read; events are many (50,000 in a long call) and only the page's are read,
 * so a virtualised list can ask for any window of the timeline.
 */
import type { TimelineItem } from '../../../shared/contract/history';
import type { CapturedEvent } from '../../../shared/contract/runs';
import type { SessionMark } from '../../../shared/session-metrics';

/**
 * Which events a timeline window needs: the first event at or after position `offset`, given the
 * marks (in timeline order). Mark j sits at position `eventIndex + j`.
 */
export function firstEventAt(marks: readonly SessionMark[], offset: number): { event: number; mark: number } {
  let before = 0;
  while (before < marks.length && marks[before].eventIndex + before < offset) before++;
  return { event: offset - before, mark: before };
}

/**
 * Interleaves the page's events (starting at event `start.event`) with the marks from
 * `start.mark`, up to `limit` items from position `offset`.
 */
export function mergeTimeline(
  marks: readonly SessionMark[],
  events: readonly CapturedEvent[],
  start: { event: number; mark: number },
  offset: number,
  limit: number,
): TimelineItem[] {
  const items: TimelineItem[] = [];
  let e = 0;
  let m = start.mark;
  while (items.length < limit) {
    const at = offset + items.length;
    if (m < marks.length && marks[m].eventIndex <= start.event + e) items.push({ at, mark: marks[m++] });
    else if (e < events.length) items.push({ at, event: events[e++] });
    else break;
  }
  return items;
}
