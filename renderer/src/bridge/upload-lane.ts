/**
 * Browser mode's bytes lane (main/services/upload-lane.ts, main/host/upload-route.ts): one slice of
 * an upload posted with `fetch(body: Blob)`, which Chromium streams straight from its blob store
 * (far faster than a WebSocket sends a Blob: test/bench/ws-ceiling.ts). Addressed by the ticket
 * the session's one chunk gave and the slice's index; the page token goes as a Bearer header.
 * Resolves once main has taken the slice; rejects with main's refusal, or `network` when the
 * request never got an answer. No `window` here: tests post from Node with their own `fetch`.
 */
import { WorkbenchFailure, isWorkbenchError } from '../../../shared/contract/errors';

/** Posts slice `index` of the upload with `ticket`; `body` is a Blob (or any fetch body). */
export type LanePoster = (ticket: string, index: number, body: unknown, signal?: AbortSignal) => Promise<void>;

export interface LaneOptions {
  /** The loopback server's origin ('' in the page: its own). */
  base: string;
  token: () => string;
  fetch?: typeof fetch;
}

export function createLanePoster(options: LaneOptions): LanePoster {
  const send = options.fetch ?? fetch;
  return async (ticket, index, body, signal) => {
    let res: Response;
    try {
      res = await send(`${options.base}/upload-lane/${ticket}/${index}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${options.token()}`, 'Content-Type': 'application/octet-stream' },
        body: body as never,
        signal,
      });
    } catch (err) {
      throw new WorkbenchFailure({ code: 'network', message: `Disconnected from the workbench process while sending chunk ${index}: ${err instanceof Error ? err.message : String(err)}` });
    }
    if (res.ok) return void (await res.body?.cancel().catch(() => {}));
    const answer = (await res.json().catch(() => null)) as { error?: unknown } | null;
    if (answer && isWorkbenchError(answer.error)) throw new WorkbenchFailure(answer.error);
    throw new WorkbenchFailure({ code: 'protocol', message: `The workbench refused chunk ${index} (HTTP ${res.status}).` });
  };
}

let pageLane: LanePoster | null = null;

/** Browser mode's bridge sets the page's poster (its token); Electron has none. */
export function setPageLane(poster: LanePoster | null): void {
  pageLane = poster;
}

/** The page's lane, when browser mode set one: uploads send their slices over it. */
export function pageUploadLane(): LanePoster | undefined {
  return pageLane ?? undefined;
}
