/**
 * The app operations that need the desktop shell's native helpers (a file dialog, opening a file
 * in its default program). Electron injects those helpers into createApp; browser mode has none,
 * and each operation then answers what the page can do instead.
 */
import { WorkbenchFailure } from '../../shared/contract/errors';
import type { OpenLogResult } from '../../shared/contract/app';
import type { FileRef, PickFilesInput } from '../../shared/contract/user-files';
import type { UserFiles } from './user-files';

/** The native open dialog: the chosen paths, [] when the user cancels. */
export type PickFiles = (options: { multiple: boolean; title?: string }) => Promise<string[]>;
/** Opens a file in its default program; '' on success, else why not (Electron's shell.openPath). */
export type OpenPath = (path: string) => Promise<string>;

/** `userFiles.pick`: the dialog's files as references; `unsupported` where there is no dialog. */
export async function pickUserFiles(userFiles: UserFiles, pickFiles: PickFiles | undefined, input: PickFilesInput): Promise<FileRef[]> {
  if (!pickFiles) {
    throw new WorkbenchFailure({
      code: 'unsupported',
      message: 'Browser mode has no file dialog of its own; choose the file in the page instead.',
    });
  }
  const paths = await pickFiles({ multiple: input?.multiple ?? false, title: input?.title });
  const refs: FileRef[] = [];
  try {
    for (const path of paths) refs.push(await userFiles.register(path));
  } catch (err) {
    // All or nothing: the page never holds references it was not told about.
    for (const { ref } of refs) userFiles.release(ref);
    throw err;
  }
  return refs;
}

/** `app.openLog`: opens the log where the shell can; otherwise says where it is. */
export async function openLogFile(logPath: string, openPath: OpenPath | undefined, log: (line: string) => void): Promise<OpenLogResult> {
  if (!openPath) return { opened: false, path: logPath };
  const problem = await openPath(logPath);
  if (problem) log(`[app] could not open the log file ${logPath}: ${problem}`);
  return { opened: !problem, path: logPath };
}
