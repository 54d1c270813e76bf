/**
 * The Files view's upload queue: one row per file the user gave, from the size check (a file
 * over the limit is explained and never sent) to its end: complete, cancelled, or failed with the
 * reason and a Retry.
 *
 * In browser mode a file goes in two legs: the page hands its bytes to the workbench (staging,
 * the contract's `userFiles.upload`), then main sends them to the service. To the user that is ONE upload: one progress
 * line over both legs, with speed and time left from the first byte, and a Cancel that works in
 * every phase and leaves nothing behind — on the service (main deletes what it accepted) or in
 * staging (a cancelled upload session's partial file is removed by main; a staged copy is released).
 */
import { defineStore } from 'pinia';
import { shallowRef, triggerRef } from 'vue';
import { oversizeReason } from '@shared/byte-size';
import type { StreamHandle } from '@shared/contract/api';
import type { WorkbenchError } from '@shared/contract/errors';
import type { FileRecord } from '@shared/families/files/contract';
import type { FileRef } from '@shared/contract/user-files';
import { FILE_LIMITS } from '@shared/wire/files';
import { useWorkbench } from '../../../api';
import { toWorkbenchError } from '../../../lib/errors';

/** `staging`: the page hands the bytes to the workbench; `uploading`: main sends them to the service. */
export type UploadPhase = 'rejected' | 'queued' | 'staging' | 'uploading' | 'complete' | 'cancelled' | 'failed';

export interface UploadItem {
  /** The queue's own id for the row. */
  id: number;
  name: string;
  size: number;
  phase: UploadPhase;
  /** Bytes the page handed to the workbench (browser mode's first leg). */
  staged: number;
  /** Bytes main sent to the service. */
  sent: number;
  /** Speed of the leg running now (the page measures staging; main measures sending). */
  bytesPerSecond: number;
  /** True when the file goes in two legs (the page stages it first). */
  twoLegs: boolean;
  /** Why it was rejected or failed, or what a cancel left. */
  message: string | null;
  error: WorkbenchError | null;
  ref: FileRef | null;
  record: FileRecord | null;
  runId: string | null;
}

/**
 * Turns one of the page's files into a reference main can read (browser mode stages the bytes);
 * reports the bytes handed over; aborting `signal` stops it and rejects with `cancelled`.
 */
export type StageFile = (file: File, onProgress: (loaded: number) => void, signal: AbortSignal) => Promise<FileRef>;

/** How a view stages files: the function, and whether it moves bytes (browser mode) or only names a path. */
export interface Stager {
  stage: StageFile;
  twoLegs: boolean;
}

/**
 * The page's own speed measure for staging: bytes over the last few seconds. The oldest sample
 * kept is the last one from before the window, so progress that comes in bursts (browser mode's
 * lane reports whole 4 MiB slices, several finishing together on a slow link) still spans time.
 */
const RATE_WINDOW_MS = 3000;
export class StageRate {
  private readonly samples: { t: number; bytes: number }[] = [];
  add(bytes: number, t = performance.now()): void {
    this.samples.push({ t, bytes });
    while (this.samples.length > 2 && t - this.samples[1]!.t > RATE_WINDOW_MS) this.samples.shift();
  }
  bytesPerSecond(): number {
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    if (!first || !last || last.t - first.t < 200) return 0;
    return ((last.bytes - first.bytes) * 1000) / (last.t - first.t);
  }
}

export const useFileUploadsStore = defineStore('file-uploads', () => {
  const items = shallowRef<UploadItem[]>([]);
  /** Seconds until an upload expires on the service; undefined: the service's default. */
  const expiresAfter = shallowRef<number | undefined>(undefined);
  /** Largest file sent; main's `app.info().maxUploadBytes` replaces the service's default once known. */
  const maxFileBytes = shallowRef<number>(FILE_LIMITS.maxFileBytes);
  const handles = new Map<number, StreamHandle<FileRecord>>();
  /** Staging in progress or waiting, by row: Cancel aborts it. */
  const staging = new Map<number, AbortController>();
  /** The page's files, by row, so a cancelled staged upload can be staged again by Retry. */
  const pageFiles = new Map<number, { file: File; stager: Stager }>();
  /** One file is staged at a time (each gets the link's whole width); each is sent as soon as it is staged. */
  let stageChain: Promise<void> = Promise.resolve();
  let nextId = 1;

  function add(name: string, size: number, twoLegs: boolean): UploadItem {
    const item: UploadItem = { id: nextId++, name, size, phase: 'queued', staged: 0, sent: 0, bytesPerSecond: 0, twoLegs, message: null, error: null, ref: null, record: null, runId: null };
    items.value = [item, ...items.value];
    return item;
  }

  function touch(): void {
    triggerRef(items);
  }

  function rejectIfTooBig(item: UploadItem): boolean {
    const tooBig = oversizeReason(item.name, item.size, maxFileBytes.value);
    if (tooBig) Object.assign(item, { phase: 'rejected', message: tooBig });
    return Boolean(tooBig);
  }

  /**
   * Queues the files the user dropped or chose: too large ones are explained and left out; each
   * of the rest is staged (browser mode, one at a time) and sent as soon as it is.
   */
  async function addFiles(files: File[], stager: Stager): Promise<void> {
    const runs: Promise<void>[] = [];
    for (const file of files) {
      const item = add(file.name, file.size, stager.twoLegs);
      if (rejectIfTooBig(item)) continue;
      pageFiles.set(item.id, { file, stager });
      runs.push(stageThenSend(item, file, stager));
    }
    touch();
    await Promise.all(runs);
  }

  /** Stages `file` (after the files queued before it), then sends it; Cancel works at each step. */
  function stageThenSend(item: UploadItem, file: File, stager: Stager): Promise<void> {
    const controller = new AbortController();
    staging.set(item.id, controller);
    Object.assign(item, { phase: 'queued', staged: 0, sent: 0, bytesPerSecond: 0, message: null, error: null, record: null, ref: null, runId: null });
    const staged = stageChain.then(() => stageOne(item, file, stager, controller.signal));
    stageChain = staged.then(
      () => undefined,
      () => undefined,
    );
    return staged.then(async (ref) => {
      staging.delete(item.id);
      if (!ref) return;
      if (controller.signal.aborted) {
        // Cancelled between the end of staging and the send: the staged copy goes too.
        await releaseStaged(item, ref);
        await recordCancelled(item);
        return;
      }
      await start(item, ref);
    });
  }

  /** One file's staging; null when it was cancelled or failed (the row says which). */
  async function stageOne(item: UploadItem, file: File, stager: Stager, signal: AbortSignal): Promise<FileRef | null> {
    if (signal.aborted) {
      await recordCancelled(item);
      return null;
    }
    Object.assign(item, { phase: 'staging' });
    touch();
    const rate = new StageRate();
    rate.add(0);
    try {
      const ref = await stager.stage(
        file,
        (loaded) => {
          rate.add(loaded);
          Object.assign(item, { staged: loaded, bytesPerSecond: rate.bytesPerSecond() });
          touch();
        },
        signal,
      );
      item.staged = item.size;
      item.ref = ref;
      return ref;
    } catch (err) {
      const error = toWorkbenchError(err);
      if (error.code === 'cancelled' || signal.aborted) await recordCancelled(item);
      else Object.assign(item, { phase: 'failed', error, message: error.message });
      touch();
      return null;
    }
  }

  /** A cancel before main sent anything: recorded in History as a cancelled upload. */
  async function recordCancelled(item: UploadItem): Promise<void> {
    Object.assign(item, { phase: 'cancelled', bytesPerSecond: 0, message: 'Cancelled; nothing was sent to the service and nothing was kept.' });
    touch();
    try {
      const record = await useWorkbench().files.uploadCancelled({
        name: item.name,
        size: item.size,
        type: pageFiles.get(item.id)?.file.type ?? '',
        staged: Math.min(item.staged, item.size),
        ...(expiresAfter.value ? { expiresAfter: expiresAfter.value } : {}),
      });
      Object.assign(item, { record, runId: record.runId, message: record.statusMessage ?? item.message });
    } catch {
      // The cancel itself held; only its History entry is missing.
    }
    touch();
  }

  /**
   * Forgets the reference made from the page's file (nothing is left in staging; Retry stages the
   * file again). Electron's in-page files are staged too; a reference to a path on disk only names
   * the user's file, and releasing it deletes nothing of theirs.
   */
  async function releaseStaged(item: UploadItem, ref: FileRef): Promise<void> {
    if (!pageFiles.has(item.id)) return;
    item.ref = null;
    try {
      await useWorkbench().userFiles.release({ ref: ref.ref });
    } catch {
      // Main forgets staged copies after a day in any case.
    }
  }

  /** Uploads files main already has references for (Electron's dialog, a drop resolved by the preload or the drop router). */
  async function addRefs(refs: FileRef[]): Promise<void> {
    const started: Promise<void>[] = [];
    for (const ref of refs) {
      const item = add(ref.name, ref.size, false);
      if (!rejectIfTooBig(item)) started.push(start(item, ref));
    }
    touch();
    await Promise.all(started);
  }

  async function start(item: UploadItem, ref: FileRef): Promise<void> {
    Object.assign(item, { ref, phase: 'uploading', sent: 0, bytesPerSecond: 0, message: null, error: null, record: null });
    touch();
    const handle = useWorkbench().files.upload({ ref: ref.ref, ...(expiresAfter.value ? { expiresAfter: expiresAfter.value } : {}) }, (chunk) => {
      if (chunk.type === 'started') item.runId = chunk.runId;
      else Object.assign(item, { sent: chunk.sent, bytesPerSecond: chunk.bytesPerSecond });
      touch();
    });
    handles.set(item.id, handle);
    try {
      const record = await handle.result;
      Object.assign(item, { record, phase: record.status === 'complete' ? 'complete' : 'cancelled', message: record.status === 'complete' ? null : record.statusMessage });
      if (record.status === 'complete') item.sent = item.size;
      // A cancel leaves nothing in staging either; Retry stages the page's file again.
      else await releaseStaged(item, ref);
    } catch (err) {
      const error = toWorkbenchError(err);
      Object.assign(item, { phase: error.code === 'cancelled' ? 'cancelled' : 'failed', error, message: error.message });
      if (error.code === 'cancelled') await releaseStaged(item, ref);
    } finally {
      handles.delete(item.id);
      touch();
    }
  }

  /**
   * Stops an upload in whatever phase it is: waiting or staging (the staging request is aborted
   * and the server drops its partial copy), or sending (main aborts the request and deletes
   * anything the service kept).
   */
  async function cancel(id: number): Promise<void> {
    const stage = staging.get(id);
    if (stage) {
      stage.abort();
      return;
    }
    await handles.get(id)?.cancel();
  }

  /** Sends a failed or cancelled file again: its reference if main still has it, else the page's file staged anew. */
  async function retry(id: number): Promise<void> {
    const item = items.value.find((i) => i.id === id);
    if (!item || handles.has(id) || staging.has(id)) return;
    if (item.ref) return start(item, item.ref);
    const own = pageFiles.get(id);
    if (own) return stageThenSend(item, own.file, own.stager);
  }

  /** Whether Retry can send a finished row again (main still has its file, or the page does). */
  function canRetry(item: UploadItem): boolean {
    return (item.phase === 'failed' || item.phase === 'cancelled') && (item.ref !== null || pageFiles.has(item.id));
  }

  /** Clears finished rows from the queue. */
  function clearFinished(): void {
    for (const item of items.value) {
      if (isRunning(item)) continue;
      // A failed upload kept its staged copy for Retry; cleared, it has no use.
      if (item.ref && item.phase !== 'complete') void releaseStaged(item, item.ref);
      pageFiles.delete(item.id);
    }
    items.value = items.value.filter(isRunning);
  }

  return { items, expiresAfter, maxFileBytes, addFiles, addRefs, cancel, retry, canRetry, clearFinished };
});

/** True while an upload runs (any leg), so its progress and Cancel are shown. */
export function isRunning(item: Pick<UploadItem, 'phase'>): boolean {
  return item.phase === 'queued' || item.phase === 'staging' || item.phase === 'uploading';
}

/** How far the whole upload is, 0..1: both legs count when the page stages the file first. */
export function uploadFraction(item: Pick<UploadItem, 'size' | 'staged' | 'sent' | 'twoLegs' | 'phase'>): number {
  if (item.phase === 'complete') return 1;
  if (item.size <= 0) return item.phase === 'uploading' ? 1 : 0;
  const staged = item.twoLegs ? Math.min(item.staged, item.size) : 0;
  const legs = item.twoLegs ? 2 : 1;
  return Math.min(1, (staged + Math.min(item.sent, item.size)) / (legs * item.size));
}

/**
 * Seconds left at the current speed, or null while the speed is unknown. While the page stages a
 * file, the send to the service is still ahead: it is counted at the same speed, the only one
 * known yet (the estimate corrects itself once the send starts).
 */
export function secondsLeft(item: Pick<UploadItem, 'size' | 'sent' | 'bytesPerSecond'> & Partial<Pick<UploadItem, 'staged' | 'twoLegs' | 'phase'>>): number | null {
  if (item.bytesPerSecond <= 0) return null;
  const ahead = item.twoLegs && item.phase !== 'uploading' ? item.size - (item.staged ?? 0) + item.size : item.size - item.sent;
  return Math.max(0, Math.ceil(ahead / item.bytesPerSecond));
}
