/**
 * The Files view's upload queue: one row per file the user gave, from the size check (a file
 * over the limit is explained and never sent) through staging (browser mode sends the bytes to
 * main first), the upload stream's progress, speed and time left, to its end: complete,
 * cancelled (Cancel stops the stream in main), or failed with the reason and a Retry.
 */
import { defineStore } from 'pinia';
import { shallowRef, triggerRef } from 'vue';
import { oversizeReason } from '@shared/byte-size';
import type { StreamHandle } from '@shared/contract/api';
import type { WorkbenchError } from '@shared/contract/errors';
import type { FileRecord } from '@shared/contract/files';
import type { FileRef } from '@shared/contract/user-files';
import { FILE_LIMITS } from '@shared/wire/files';
import { useWorkbench } from '../api';
import { toWorkbenchError } from '../lib/errors';

export type UploadPhase = 'rejected' | 'staging' | 'uploading' | 'complete' | 'cancelled' | 'failed';

export interface UploadItem {
  /** The queue's own id for the row. */
  id: number;
  name: string;
  size: number;
  phase: UploadPhase;
  sent: number;
  bytesPerSecond: number;
  /** Why it was rejected or failed, or what a cancel left. */
  message: string | null;
  error: WorkbenchError | null;
  ref: FileRef | null;
  record: FileRecord | null;
  runId: string | null;
}

/** Turns a page's files into references main can read (browser mode stages the bytes first). */
export type StageFiles = (files: File[], onProgress: (file: File, sent: number) => void) => Promise<FileRef[]>;

export const useFileUploadsStore = defineStore('file-uploads', () => {
  const items = shallowRef<UploadItem[]>([]);
  /** Seconds until an upload expires on the service; undefined: the service's default. */
  const expiresAfter = shallowRef<number | undefined>(undefined);
  /** Largest file sent; main's `app.info().maxUploadBytes` replaces the service's default once known. */
  const maxFileBytes = shallowRef<number>(FILE_LIMITS.maxFileBytes);
  const handles = new Map<number, StreamHandle<FileRecord>>();
  let nextId = 1;

  function add(name: string, size: number): UploadItem {
    const item: UploadItem = { id: nextId++, name, size, phase: 'staging', sent: 0, bytesPerSecond: 0, message: null, error: null, ref: null, record: null, runId: null };
    items.value = [item, ...items.value];
    return item;
  }

  function touch(): void {
    triggerRef(items);
  }

  /**
   * Queues the files the user dropped or chose: too large ones are explained and left out, the
   * rest are staged (browser mode) and uploaded, all at once.
   */
  async function addFiles(files: File[], stage: StageFiles): Promise<void> {
    const accepted: { file: File; item: UploadItem }[] = [];
    for (const file of files) {
      const item = add(file.name, file.size);
      const tooBig = oversizeReason(file.name, file.size, maxFileBytes.value);
      if (tooBig) Object.assign(item, { phase: 'rejected', message: tooBig });
      else accepted.push({ file, item });
    }
    touch();
    if (accepted.length === 0) return;
    let refs: FileRef[];
    try {
      refs = await stage(
        accepted.map((a) => a.file),
        (file, sent) => {
          const entry = accepted.find((a) => a.file === file);
          if (entry) entry.item.sent = sent;
          touch();
        },
      );
    } catch (err) {
      const error = toWorkbenchError(err);
      for (const { item } of accepted) Object.assign(item, { phase: 'failed', error, message: error.message });
      touch();
      return;
    }
    await Promise.all(accepted.map(({ item }, i) => (refs[i] ? start(item, refs[i]!) : Promise.resolve())));
  }

  /** Uploads files main already has references for (Electron's dialog, a drop resolved by the preload). */
  async function addRefs(refs: FileRef[]): Promise<void> {
    const started: Promise<void>[] = [];
    for (const ref of refs) {
      const item = add(ref.name, ref.size);
      const tooBig = oversizeReason(ref.name, ref.size, maxFileBytes.value);
      if (tooBig) Object.assign(item, { phase: 'rejected', message: tooBig });
      else started.push(start(item, ref));
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
    } catch (err) {
      const error = toWorkbenchError(err);
      Object.assign(item, { phase: error.code === 'cancelled' ? 'cancelled' : 'failed', error, message: error.message });
    } finally {
      handles.delete(item.id);
      touch();
    }
  }

  /** Stops an upload: main aborts the request and deletes anything the service kept. */
  async function cancel(id: number): Promise<void> {
    await handles.get(id)?.cancel();
  }

  /** Sends a failed or cancelled file again (its reference is still valid in main). */
  async function retry(id: number): Promise<void> {
    const item = items.value.find((i) => i.id === id);
    if (!item?.ref || handles.has(id)) return;
    await start(item, item.ref);
  }

  /** Clears finished rows from the queue. */
  function clearFinished(): void {
    items.value = items.value.filter((i) => i.phase === 'uploading' || i.phase === 'staging');
  }

  return { items, expiresAfter, maxFileBytes, addFiles, addRefs, cancel, retry, clearFinished };
});

/** Seconds left at the current speed, or null while the speed is unknown. */
export function secondsLeft(item: Pick<UploadItem, 'size' | 'sent' | 'bytesPerSecond'>): number | null {
  if (item.bytesPerSecond <= 0) return null;
  return Math.max(0, Math.ceil((item.size - item.sent) / item.bytesPerSecond));
}
