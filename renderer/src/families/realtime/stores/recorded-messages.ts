/**
 * A call's messages as main recorded them (History's timeline of its run, read a page at a time):
 * for the JSONL export (the whole call) and to fill the console's log with what was said before
 * this window attached (a reload, a late attach: the live events only start at the attachment).
 */
import type { TimelineItem } from '@shared/contract/history';
import { useWorkbench } from '../../../api';
import type { LogMessage } from '../lib/event-log';

const PAGE = 500;

/** One timeline item as a log message (a mark is not a message: null). */
export function messageOfItem(item: TimelineItem): LogMessage | null {
  if (!('event' in item)) return null;
  let message: unknown = item.event.data;
  try {
    message = JSON.parse(item.event.data);
  } catch {
    // Not JSON (an audio frame's summary): kept as its text.
  }
  return { t: item.event.t, direction: item.event.direction === 'out' ? 'out' : 'in', message };
}

/** The run's first `limit` messages (all of them when absent), oldest first. */
export async function recordedMessages(runId: string, limit = Number.POSITIVE_INFINITY): Promise<LogMessage[]> {
  const api = useWorkbench();
  const out: LogMessage[] = [];
  for (let offset = 0; out.length < limit; ) {
    const page = await api.history.timeline({ id: runId, offset, limit: PAGE });
    for (const item of page.items) {
      const m = messageOfItem(item);
      if (m && out.length < limit) out.push(m);
    }
    offset += page.items.length;
    if (page.items.length === 0 || offset >= page.total) break;
  }
  return out;
}
