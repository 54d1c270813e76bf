// The page's upload groups for Cancel: a cancel stops what runs, waits for it, and hands back
// every ref staged under the id, including one that finished while the cancel was under way.
import { describe, expect, it } from 'vitest';
import type { FileRef } from '../../../../shared/contract/user-files';
import { StageUploads, UPLOAD_ID_PATTERN } from '../../../../main/host/stage-uploads';

const ref = (id: string): FileRef => ({ ref: id, name: 'f', size: 1, type: '' });

/** A stage that resolves with `result` when resolved by hand, or rejects when its signal aborts. */
function fakeStage(controller: AbortController): { result: Promise<FileRef>; finish: (r: FileRef) => void } {
  let finish!: (r: FileRef) => void;
  const result = new Promise<FileRef>((resolve, reject) => {
    finish = resolve;
    controller.signal.addEventListener('abort', () => setTimeout(() => reject(new Error('cancelled')), 5));
  });
  return { result, finish };
}

describe('StageUploads', () => {
  it('accepts 128-bit base64url ids and refuses anything else', () => {
    expect(UPLOAD_ID_PATTERN.test('AbCd_-0123456789xyzXYZ')).toBe(true);
    for (const bad of ['short', 'has space in it here', '../../../../etc/passwd', 'x'.repeat(65)]) expect(UPLOAD_ID_PATTERN.test(bad)).toBe(false);
  });

  it('stops the running stages and hands back the refs of the finished ones', async () => {
    const uploads = new StageUploads();
    const done = new AbortController();
    const doneStage = fakeStage(done);
    uploads.track('group-0000000000000001', done, doneStage.result);
    doneStage.finish(ref('ref_done'));
    const running = new AbortController();
    uploads.track('group-0000000000000001', running, fakeStage(running).result);
    const outcome = await uploads.cancel('group-0000000000000001');
    expect(running.signal.aborted).toBe(true);
    expect(outcome).toEqual({ aborted: 1, refs: ['ref_done'] });
    expect(await uploads.cancel('group-0000000000000001')).toEqual({ aborted: 0, refs: [] });
  });

  it('sees the ref of a stage that finished instead of stopping', async () => {
    const uploads = new StageUploads();
    const controller = new AbortController();
    let finish!: (r: FileRef) => void;
    // Its file was already renamed into place: aborting changes nothing, it resolves anyway.
    const result = new Promise<FileRef>((resolve) => (finish = resolve));
    uploads.track('group-0000000000000002', controller, result);
    const cancelling = uploads.cancel('group-0000000000000002');
    finish(ref('ref_late'));
    expect(await cancelling).toEqual({ aborted: 0, refs: ['ref_late'] });
  });

  it('forgets the oldest idle group past its bound, never a running one', async () => {
    let clock = 0;
    const uploads = new StageUploads(2, () => clock++);
    const running = new AbortController();
    uploads.track('group-running-000001', running, new Promise<FileRef>(() => {}));
    const idle = new AbortController();
    const idleStage = fakeStage(idle);
    uploads.track('group-idle-000000001', idle, idleStage.result);
    idleStage.finish(ref('ref_idle'));
    await Promise.resolve();
    await Promise.resolve();
    const third = new AbortController();
    uploads.track('group-third-00000001', third, new Promise<FileRef>(() => {}));
    expect((await uploads.cancel('group-idle-000000001')).refs).toEqual([]);
    const cancelRunning = uploads.cancel('group-running-000001');
    expect(running.signal.aborted).toBe(true);
    void cancelRunning;
  });
});
