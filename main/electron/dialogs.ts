/** The native open dialog behind `userFiles.pick`, attached to the main window when there is one. */
import { dialog, type BrowserWindow, type OpenDialogOptions } from 'electron';
import type { PickFiles } from '../services/shell-actions';

/** A PickFiles over `dialog.showOpenDialog`; [] when the user cancels. */
export function createFilePicker(getWindow: () => BrowserWindow | null): PickFiles {
  return async ({ multiple, title }) => {
    const options: OpenDialogOptions = {
      title: title ?? (multiple ? 'Choose files' : 'Choose a file'),
      properties: multiple ? ['openFile', 'multiSelections'] : ['openFile'],
    };
    const window = getWindow();
    const result = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
    return result.canceled ? [] : result.filePaths;
  };
}

/** The native save dialog behind a file download; null when the user cancels. */
export function createSaveTargetChooser(getWindow: () => BrowserWindow | null): (suggestedName: string) => Promise<string | null> {
  return async (suggestedName) => {
    const options = { title: 'Save file', defaultPath: suggestedName };
    const window = getWindow();
    const result = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options);
    return result.canceled || !result.filePath ? null : result.filePath;
  };
}
