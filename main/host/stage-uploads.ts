/**
 * Uploads to `POST /stage` grouped under an id the page chooses (`X-Workbench-Upload-Id`), so that
 * one Cancel (`DELETE /stage/<id>`) stops every running one and removes every file staged under it,
 * whatever phase it is in: a file whose answer was on its way when the page aborted its request
 * would otherwise stay staged, unknown to the page, for a day.
 */
import type { FileRef } from '../../shared/contract/user-files';

/** What an upload id looks like: 16 to 64 URL-safe characters (the page makes 128 random bits). */
export const UPLOAD_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

interface Group {
  /** Each running stage, and its end: true when it was stopped, false when it staged its file. */
  running: Map<AbortController, Promise<boolean>>;
  refs: Set<string>;
  touched: number;
}

export interface CancelOutcome {
  /** Uploads that were still running and were stopped (their partial files are gone). */
  aborted: number;
  /** Staged files of the group, to release. */
  refs: string[];
}

export class StageUploads {
  private readonly groups = new Map<string, Group>();

  constructor(
    /** Groups remembered at once; past it the oldest with nothing running is forgotten. */
    private readonly maxGroups = 1024,
    private readonly now: () => number = Date.now,
  ) {}

  /** Files one running stage (`result`, aborted through `controller`) under `id`. */
  track(id: string, controller: AbortController, result: Promise<FileRef>): void {
    const group = this.group(id);
    // Chained at once, so a cancel that waits for it also sees the ref of a stage that just finished.
    const settled = result.then(
      (ref) => {
        group.refs.add(ref.ref);
        return false;
      },
      () => true,
    );
    group.running.set(controller, settled);
    void settled.then(() => group.running.delete(controller));
  }

  /** Stops `id`'s running stages, waits until their partial files are gone, and hands back its refs. */
  async cancel(id: string): Promise<CancelOutcome> {
    const group = this.groups.get(id);
    if (!group) return { aborted: 0, refs: [] };
    this.groups.delete(id);
    const running = [...group.running];
    for (const [controller] of running) controller.abort();
    const stopped = await Promise.all(running.map(([, settled]) => settled));
    return { aborted: stopped.filter(Boolean).length, refs: [...group.refs] };
  }

  private group(id: string): Group {
    let group = this.groups.get(id);
    if (!group) {
      group = { running: new Map(), refs: new Set(), touched: this.now() };
      this.groups.set(id, group);
      if (this.groups.size > this.maxGroups) this.forgetOldestIdle();
    }
    group.touched = this.now();
    return group;
  }

  private forgetOldestIdle(): void {
    let oldest: [string, Group] | null = null;
    for (const entry of this.groups) if (entry[1].running.size === 0 && (!oldest || entry[1].touched < oldest[1].touched)) oldest = entry;
    // Its files stay until used, released or expired, as any staged file does.
    if (oldest) this.groups.delete(oldest[0]);
  }
}
