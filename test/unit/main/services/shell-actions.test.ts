// The operations that need the desktop shell's helpers, with and without them (browser mode).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WorkbenchFailure } from '../../../../shared/contract/errors';
import { openLogFile, pickUserFiles } from '../../../../main/services/shell-actions';
import { UserFiles } from '../../../../main/services/user-files';

let root: string;
let userFiles: UserFiles;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'wb-shell-'));
  userFiles = new UserFiles({ stagingDir: join(root, 'staging'), log: () => {} });
});
afterEach(() => {
  userFiles.dispose();
  rmSync(root, { recursive: true, force: true });
});

describe('shell-actions', () => {
  describe('pickUserFiles()', () => {
    it('answers unsupported in browser mode, so the page uses its own file input', async () => {
      const error = await pickUserFiles(userFiles, undefined, {}).catch((err: WorkbenchFailure) => err.error);
      expect(error).toEqual({ code: 'unsupported', message: 'Browser mode has no file dialog of its own; choose the file in the page instead.' });
    });

    it('turns the dialog’s paths into references, and a cancelled dialog into []', async () => {
      writeFileSync(join(root, 'a.txt'), 'aa');
      writeFileSync(join(root, 'b.txt'), 'bbb');
      const dialog = vi.fn(async () => [join(root, 'a.txt'), join(root, 'b.txt')]);
      const refs = await pickUserFiles(userFiles, dialog, { multiple: true, title: 'Upload' });
      expect(dialog).toHaveBeenCalledWith({ multiple: true, title: 'Upload' });
      expect(refs.map(({ name, size }) => [name, size])).toEqual([['a.txt', 2], ['b.txt', 3]]);
      expect(await pickUserFiles(userFiles, async () => [], undefined)).toEqual([]);
    });

    it('gives no reference at all when one chosen file is refused', async () => {
      writeFileSync(join(root, 'a.txt'), 'aa');
      const release = vi.spyOn(userFiles, 'release');
      await expect(pickUserFiles(userFiles, async () => [join(root, 'a.txt'), root], {})).rejects.toThrow(/is a folder/);
      expect(release).toHaveBeenCalledOnce();
    });
  });

  describe('openLogFile()', () => {
    it('opens the log where the shell can, and says where it is otherwise', async () => {
      const path = '/data/logs/workbench.log';
      expect(await openLogFile(path, async () => '', () => {})).toEqual({ opened: true, path });
      const log = vi.fn();
      expect(await openLogFile(path, async () => 'no application is associated', log)).toEqual({ opened: false, path });
      expect(log).toHaveBeenCalledWith(expect.stringContaining('no application is associated'));
      expect(await openLogFile(path, undefined, () => {})).toEqual({ opened: false, path });
    });
  });
});
