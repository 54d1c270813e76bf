/**
 * WORKBENCH_SANDBOX_MAX_FILE_BYTES through the whole app (createApp): by default the app and its
 * embedded sandbox take 50 MB and app.info says so; with it set, app.info reports the raised limit
 * and a 60 MB file (sparse) goes through files.upload to the sandbox and back as complete.
 */
import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FileRecord } from '../../../shared/families/files/contract';
import { startHarness, type Harness } from './harness';

const MB = 1024 * 1024;
const ENV = 'WORKBENCH_SANDBOX_MAX_FILE_BYTES';

describe('the upload limit of the app and its embedded sandbox', () => {
  let h: Harness | undefined;
  const saved = process.env[ENV];

  afterEach(async () => {
    await h?.close();
    h = undefined;
    if (saved === undefined) delete process.env[ENV];
    else process.env[ENV] = saved;
  });

  const ctx = () => ({ sessionId: 'test', signal: new AbortController().signal });

  async function uploadSparse(harness: Harness, bytes: number): Promise<FileRecord> {
    const path = join(harness.dataDir, 'sparse.bin');
    writeFileSync(path, '');
    truncateSync(path, bytes);
    const ref = await harness.app.userFiles.register(path);
    return harness.app.handlers.files.upload({ ref: ref.ref }, { ...ctx(), streamId: 'upload-limit-test', emit: () => {} });
  }

  it('is 50 MB by default: app.info says so and a larger file is refused before it is sent', async () => {
    delete process.env[ENV];
    h = await startHarness();
    expect((await h.app.handlers.app.info(undefined, ctx())).maxUploadBytes).toBe(50 * MB);
    await expect(uploadSparse(h, 60 * MB)).rejects.toMatchObject({ error: { code: 'invalid_input', message: expect.stringContaining('up to 50 MiB') } });
  });

  it('follows the environment variable: reported to the page, and the sandbox takes the larger file', async () => {
    process.env[ENV] = String(64 * MB);
    h = await startHarness();
    expect((await h.app.handlers.app.info(undefined, ctx())).maxUploadBytes).toBe(64 * MB);
    const record = await uploadSparse(h, 60 * MB);
    expect(record).toMatchObject({ status: 'complete', bytes: 60 * MB, id: expect.stringMatching(/^file_/) });
  });
});
