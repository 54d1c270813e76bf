// UserFiles: references to the user's files on disk and to staged uploads; nothing half-written
// is ever registered, and a ref that no longer points at the same bytes says so.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileRefIdSchema } from '../../../../shared/contract/user-files';
import { WorkbenchFailure } from '../../../../shared/contract/errors';
import { DEFAULT_STAGING_BOUNDS, StagingFull, UserFiles } from '../../../../main/services/user-files';

let root: string;
let stagingDir: string;
let clock: number;
let files: UserFiles;
const logged: string[] = [];

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'wb-userfiles-'));
  stagingDir = join(root, 'staging');
  clock = 1_000;
  logged.length = 0;
  files = new UserFiles({ stagingDir, log: (line) => logged.push(line), now: () => clock });
});

afterEach(() => {
  files.dispose();
  rmSync(root, { recursive: true, force: true });
});

async function failureOf(run: () => unknown): Promise<WorkbenchFailure['error']> {
  try {
    await run();
  } catch (err) {
    if (err instanceof WorkbenchFailure) return err.error;
    throw err;
  }
  throw new Error('expected a WorkbenchFailure');
}

describe('user-files', () => {
  describe('constructor', () => {
    it('empties what a previous run left in the staging folder', () => {
      files.dispose();
      mkdirSync(stagingDir, { recursive: true });
      writeFileSync(join(stagingDir, 'old.part'), 'x');
      files = new UserFiles({ stagingDir, log: () => {} });
      expect(readdirSync(stagingDir)).toEqual([]);
    });
  });

  describe('register()', () => {
    it('makes an opaque ref for a file on disk and resolves it back', async () => {
      const path = join(root, 'notes.txt');
      writeFileSync(path, 'hello');
      const ref = await files.register(path);
      expect(ref).toEqual({ ref: expect.any(String), name: 'notes.txt', size: 5, type: '' });
      expect(FileRefIdSchema.safeParse(ref.ref).success).toBe(true);
      expect(ref.ref).not.toContain(root);
      expect(files.resolve(ref.ref)).toEqual({ path, name: 'notes.txt', size: 5, type: '' });
    });

    it('refuses a folder with a message that says what to do', async () => {
      const error = await failureOf(() => files.register(root));
      expect(error.code).toBe('invalid_input');
      expect(error.message).toMatch(/is a folder; choose the files inside it/);
    });

    it('refuses something that is not a regular file (a device)', async () => {
      const error = await failureOf(() => files.register('/dev/null'));
      expect(error).toEqual({ code: 'invalid_input', message: '"null" is not a regular file.' });
    });

    it('refuses a path that does not exist', async () => {
      const error = await failureOf(() => files.register(join(root, 'gone.txt')));
      expect(error.code).toBe('not_found');
    });
  });

  describe('stage()', () => {
    it('streams the body to a staged file with the same bytes', async () => {
      const bytes = Buffer.alloc(3 * 1024 * 1024 + 7, 0xab);
      bytes.write('start', 0);
      const ref = await files.stage('photo.png', 'image/png', Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]), bytes.length);
      expect(ref).toMatchObject({ name: 'photo.png', size: bytes.length, type: 'image/png' });
      const resolved = files.resolve(ref.ref);
      expect(resolved.path.startsWith(stagingDir)).toBe(true);
      expect(readFileSync(resolved.path).equals(bytes)).toBe(true);
      expect(readdirSync(stagingDir).filter((f) => f.endsWith('.part'))).toEqual([]);
    });

    it('keeps only the last part of a name that carries a path', async () => {
      const ref = await files.stage('../../etc/passwd', '', Readable.from([Buffer.from('x')]));
      expect(ref.name).toBe('passwd');
    });

    it('leaves nothing behind when aborted mid-stage', async () => {
      const body = new PassThrough();
      const controller = new AbortController();
      const staging = files.stage('big.bin', '', body, 10_000, controller.signal);
      body.write(Buffer.alloc(4_000));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(readdirSync(stagingDir)).toHaveLength(1);
      controller.abort();
      const error = await failureOf(() => staging);
      expect(error.code).toBe('cancelled');
      expect(readdirSync(stagingDir)).toEqual([]);
    });

    it('registers nothing for a short upload', async () => {
      const error = await failureOf(() => files.stage('short.bin', '', Readable.from([Buffer.alloc(10)]), 20));
      expect(error.message).toMatch(/ended after 10 of 20 bytes\); nothing was kept/);
      expect(readdirSync(stagingDir)).toEqual([]);
    });

    it('registers nothing when the body fails', async () => {
      const body = new PassThrough();
      const staging = files.stage('broken.bin', '', body);
      body.write('abc');
      body.destroy(new Error('socket hang up'));
      const error = await failureOf(() => staging);
      expect(error.message).toContain('socket hang up');
      expect(readdirSync(stagingDir)).toEqual([]);
    });
  });

  describe('stage() bounds', () => {
    let bounded: UserFiles;
    let free: number;
    const boundedDir = () => join(root, 'bounded');
    beforeEach(() => {
      free = 1024 ** 4;
      bounded = new UserFiles({ stagingDir: boundedDir(), log: (line) => logged.push(line), bounds: { maxFiles: 3, maxBytes: 10_000 }, freeBytes: async () => free });
    });
    afterEach(() => bounded.dispose());

    const stageBytes = (name: string, size: number) => bounded.stage(name, '', Readable.from([Buffer.alloc(size, 1)]), size);

    it('has defaults that bound what a day of staged 4 GiB uploads could take', () => {
      expect(DEFAULT_STAGING_BOUNDS.maxFiles).toBeLessThanOrEqual(1_000);
      expect(DEFAULT_STAGING_BOUNDS.maxBytes).toBeLessThanOrEqual(16 * 1024 ** 3);
    });

    it('refuses a file past the count with StagingFull saying what to do, and takes it again once one is released', async () => {
      const refs = [await stageBytes('a', 10), await stageBytes('b', 10), await stageBytes('c', 10)];
      const refused = stageBytes('d.txt', 10);
      await expect(refused).rejects.toBeInstanceOf(StagingFull);
      const error = await failureOf(() => stageBytes('d.txt', 10));
      expect(error.message).toMatch(/Can't take "d\.txt": the staging folder already holds 3 files, the most it keeps at once\. Send or remove/);
      expect(readdirSync(boundedDir())).toHaveLength(3);
      bounded.release(refs[0].ref);
      expect((await stageBytes('d.txt', 10)).size).toBe(10);
    });

    it('refuses an announced size that would pass the total before reading a byte', async () => {
      await stageBytes('a', 6_000);
      const body = new PassThrough();
      const error = await failureOf(() => bounded.stage('big.bin', '', body, 5_000));
      expect(error.message).toMatch(/Can't take "big\.bin" \(4\.9 KiB\): files in the staging folder would take more than the 9\.8 KiB it keeps at once \(5\.9 KiB now\)\. Send or remove/);
      expect(body.readableFlowing).toBe(null);
      expect(readdirSync(boundedDir())).toHaveLength(1);
    });

    it('counts uploads in progress: two at once cannot pass the total together', async () => {
      const first = new PassThrough();
      const running = bounded.stage('first.bin', '', first, 6_000);
      await expect(stageBytes('second.bin', 6_000)).rejects.toBeInstanceOf(StagingFull);
      first.end(Buffer.alloc(6_000));
      expect((await running).size).toBe(6_000);
    });

    it('stops a body of unknown size once it passes the total, keeping nothing of it', async () => {
      const body = new PassThrough();
      const staging = bounded.stage('endless.bin', '', body);
      for (let i = 0; i < 12; i++) body.write(Buffer.alloc(1_000));
      body.end();
      await expect(staging).rejects.toBeInstanceOf(StagingFull);
      expect(readdirSync(boundedDir())).toEqual([]);
    });

    it('refuses an upload the disk has no room for, saying to free space', async () => {
      free = 100 * 1024 ** 2;
      const error = await failureOf(() => stageBytes('movie.mp4', 5_000));
      expect(error.message).toBe(`Can't take "movie.mp4" (4.9 KiB): the disk holding the data folder has 100.0 MiB free. Free some space and try again.`);
    });
  });

  describe('resolve()', () => {
    it('says a ref is unknown', async () => {
      const error = await failureOf(() => files.resolve('ref_AAAAAAAAAAAAAAAAAAAAAA'));
      expect(error).toEqual({ code: 'not_found', message: 'This file reference is unknown or has expired; choose the file again.' });
    });

    it('says a file vanished after it was chosen', async () => {
      const path = join(root, 'report.pdf');
      writeFileSync(path, 'pdf');
      const ref = await files.register(path);
      rmSync(path);
      const error = await failureOf(() => files.resolve(ref.ref));
      expect(error).toEqual({ code: 'not_found', message: '"report.pdf" is no longer where it was chosen (moved or deleted); choose it again.' });
    });

    it('says a file changed after it was chosen', async () => {
      const path = join(root, 'data.csv');
      writeFileSync(path, 'a,b');
      const ref = await files.register(path);
      writeFileSync(path, 'a,b,c,d');
      const error = await failureOf(() => files.resolve(ref.ref));
      expect(error.message).toBe('"data.csv" changed after it was chosen (it was 3 bytes, now 7); choose it again.');
    });

    it('expires a ref after its time, deleting a staged copy', async () => {
      const ref = await files.stage('a.txt', 'text/plain', Readable.from([Buffer.from('abc')]));
      const { path } = files.resolve(ref.ref);
      clock += 24 * 60 * 60 * 1000 + 1;
      expect((await failureOf(() => files.resolve(ref.ref))).code).toBe('not_found');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(existsSync(path)).toBe(false);
    });
  });

  describe('release()', () => {
    it('forgets the ref and deletes a staged copy, never the user’s own file', async () => {
      const own = join(root, 'mine.txt');
      writeFileSync(own, 'mine');
      const registered = await files.register(own);
      const staged = await files.stage('s.txt', '', Readable.from([Buffer.from('s')]));
      const stagedPath = files.resolve(staged.ref).path;
      expect(files.release(registered.ref)).toBe(true);
      expect(files.release(staged.ref)).toBe(true);
      expect(files.release(staged.ref)).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(existsSync(own)).toBe(true);
      expect(existsSync(stagedPath)).toBe(false);
      expect((await failureOf(() => files.resolve(registered.ref))).code).toBe('not_found');
    });
  });

  describe('dispose()', () => {
    it('removes the staging folder', async () => {
      await files.stage('s.txt', '', Readable.from([Buffer.from('s')]));
      files.dispose();
      expect(existsSync(stagingDir)).toBe(false);
    });
  });
});
