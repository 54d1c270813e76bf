/** App-level operations: what shell we run in, where data lives, and stream cancellation. */
import { z } from 'zod';
import { call } from './define';

export interface AppInfo {
  version: string;
  shell: 'electron' | 'browser';
  platform: string;
  dataDir: string;
  /** The log file (`<dataDir>/logs/workbench.log`), so the page can name it. */
  logPath: string;
}

/** What `app.openLog` did: Electron opens the file; browser mode cannot, and the page shows `path`. */
export interface OpenLogResult {
  opened: boolean;
  path: string;
}

export const appContract = {
  info: call<AppInfo>()(z.object({}).strict().optional()),
  openLog: call<OpenLogResult>()(z.object({}).strict().optional()),
};

/** Stream ids are made by the caller (so no chunk can arrive before the caller knows the id). */
export const StreamIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'stream id must be 8-64 URL-safe characters');

export const streamsContract = {
  cancel: call<{ cancelled: boolean }>()(z.object({ streamId: StreamIdSchema }).strict()),
};
