/**
 * A call's messages as main recorded them (History's timeline of its run, read a page at a time):
 * for the JSONL export (the whole call) and to fill the console's log with what was said before
 * this window attached (a reload, a late attach: the live events only start at the attachment).
 */
import type { TimelineItem } from '@shared/contract/history';
import { useWorkbench } from '../../../api';
import { toJsonl, type EventLog, type LogMessage } from '../lib/event-log';

const PAGE = 500;

/**
 * One timeline item as a log message (a mark is not a message: null). Nor is an audio event: the
 * recorder's pointer to where a span of the call's audio went in its track (each model audio delta,
 * each microphone frame), written beside the message itself. The live log never shows them; the
 * export had a line more per span of audio than the call's messages (54,678 lines for 53,633
 * messages on the Chromium bench's 50,000-message call, whose fold phase speaks five answers), and
 * a reload's backfill of the first N messages counted them as messages.
 */
export function messageOfItem(item: TimelineItem): LogMessage | null {
  if (!('event' in item) || item.event.kind === 'audio') return null;
  let message: unknown = item.event.data;
  try {
    message = JSON.parse(item.event.data);
  } catch {
    // Not JSON (an audio frame's summary): kept as its text.
  }
  return { t: item.event.t, direction: item.event.direction === 'out' ? 'out' : 'in', message };
}

/** Reads the run's first `limit` messages a page at a time, each page handed to `onPage` as it comes (oldest first). */
async function readPages(runId: string, limit: number, onPage: (messages: LogMessage[]) => void): Promise<void> {
  const api = useWorkbench();
  let read = 0;
  for (let offset = 0; read < limit; ) {
    const page = await api.history.timeline({ id: runId, offset, limit: PAGE });
    const messages: LogMessage[] = [];
    for (const item of page.items) {
      const m = messageOfItem(item);
      if (m && read < limit) {
        messages.push(m);
        read++;
      }
    }
    onPage(messages);
    offset += page.items.length;
    if (page.items.length === 0 || offset >= page.total) break;
  }
}

/** The run's first `limit` messages (all of them when absent), oldest first. */
export async function recordedMessages(runId: string, limit = Number.POSITIVE_INFINITY): Promise<LogMessage[]> {
  const out: LogMessage[] = [];
  await readPages(runId, limit, (messages) => {
    for (const m of messages) out.push(m);
  });
  return out;
}

/**
 * The first `count` messages said before this window attached. The recorder writes in batches, so
 * what was just said may reach the timeline a moment later: up to three reads, 300 ms apart, while
 * `wanted()` says the answer is still awaited. Unreadable (the recording not there yet): fewer.
 */
export async function earlierMessages(runId: string, count: number, wanted: () => boolean): Promise<LogMessage[]> {
  let earlier: LogMessage[] = [];
  for (let attempt = 0; attempt < 3 && earlier.length < count && wanted(); attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 300));
    try {
      earlier = await recordedMessages(runId, count);
    } catch {
      // Those messages are counted, not shown.
    }
  }
  return earlier;
}

const JSONL_TYPE = 'application/x-ndjson';

/**
 * The whole call as JSONL from its recording; what the console's log holds when the recording
 * cannot be read. A Blob made of one Blob per page: each page is written and encoded as it comes,
 * so no task handles the whole call at once (one string of 50,000 messages cost a task of ~100 ms
 * in the page to join and encode: test/bench/realtime-event-log-chromium.ts).
 */
export async function callJsonl(runId: string | null | undefined, log: EventLog): Promise<Blob> {
  if (runId) {
    try {
      const parts: Blob[] = [];
      await readPages(runId, Number.POSITIVE_INFINITY, (messages) => parts.push(new Blob([toJsonl(messages)])));
      return new Blob(parts, { type: JSONL_TYPE });
    } catch {
      // Fall through to what the console holds.
    }
  }
  return new Blob([toJsonl(log.rows().map((r) => ({ t: r.t, direction: r.direction, message: r.count > 1 ? { ...(r.first as object), folded: r.count } : r.first })))], { type: JSONL_TYPE });
}
