/**
 * A sandbox with a state folder keeps its video jobs across a restart, like a service that was
 * briefly unreachable: a done job answers the same result and its URL still plays (the bytes come
 * back from the folder), a job that was pending goes on to finish (encoded again if the restart
 * cut its encode short), and an extension of a video made before the restart still continues it.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../unit/main/sandbox/harness';
import { advance, create, download, EXTENSIONS, finish, GENERATIONS, poll, SMALL } from '../../unit/main/sandbox/routes/videos-helpers';
import { ffprobe, frameRgb, meanAbsDiff } from '../../unit/main/sandbox/video/ffprobe';

describe('sandbox video jobs across a restart (stateDir)', () => {
  let dir: string;
  const T0 = Date.now();
  const open: Harness[] = [];
  const launch = async (): Promise<Harness> => {
    const h = await startHarness({ stateDir: dir, now: () => T0 });
    open.push(h);
    return h;
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sb-videos-'));
  });
  afterAll(async () => {
    for (const h of open) await h.sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps done and pending jobs, their URLs and bytes, and what it made', async () => {
    const first = await launch();
    const doneId = await create(first, GENERATIONS, { prompt: 'a blue lantern at night', ...SMALL, storage_options: { filename: 'lantern.mp4' } });
    const done = await finish(first, doneId);
    const bytes = (await download(done.video!.url!)).bytes;
    const pendingId = await create(first, GENERATIONS, { prompt: 'a green comet', duration: 2, resolution: '480p' });
    await advance(first, 2);
    const progress = (await poll(first, pendingId)).progress!;
    expect(progress).toBeGreaterThan(0);
    await first.sandbox.close();
    expect(existsSync(join(dir, 'videos.json'))).toBe(true);
    expect(readdirSync(join(dir, 'videos')).some((n) => n.endsWith('.mp4'))).toBe(true);

    const second = await launch();
    const port = new URL(first.sandbox.url).port;
    expect(new URL(second.sandbox.url).port).toBe(port);
    const again = await poll(second, doneId);
    expect(again).toEqual(done);
    expect(Buffer.from((await download(again.video!.url!)).bytes).equals(Buffer.from(bytes))).toBe(true);
    expect((await poll(second, pendingId)).progress).toBe(progress);
    const later = await finish(second, pendingId);
    expect(ffprobe((await download(later.video!.url!)).bytes)).toMatchObject({ codec: 'h264', duration: 2 });

    // The stored file of the first job is a video this sandbox made: its extension continues it.
    const ext = await finish(second, await create(second, EXTENSIONS, { prompt: 'it flickers', video: { file_id: done.video!.file_output!.file_id }, duration: 2 }));
    expect(ext).toMatchObject({ status: 'done', video: { duration: 2 } });
    const extBytes = (await download(ext.video!.url!)).bytes;
    expect(ffprobe(extBytes)).toMatchObject({ width: 854, height: 480, duration: 2 });
    // Recognised (a foreign video would give a stand-in scene far from the input's last frame).
    expect(meanAbsDiff(frameRgb(bytes, 11), frameRgb(extBytes, 0))).toBeLessThan(3);
  });
});
