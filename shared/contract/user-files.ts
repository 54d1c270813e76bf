/**
 * Files from the user, as opaque references. The page never names a path: in Electron a dialog
 * in main or the preload (webUtils.getPathForFile on a dropped File) makes the reference; in
 * browser mode the page streams the bytes to main, which stages them on disk. Services only ever
 * receive a `ref` and resolve it in main.
 */
import { z } from 'zod';

/** An opaque reference id: 128 random bits, URL-safe. */
export const FileRefIdSchema = z.string().regex(/^ref_[A-Za-z0-9_-]{16,64}$/, 'not a file reference');

/** What the page may know about a file the user gave: never its path. */
export interface FileRef {
  ref: string;
  name: string;
  size: number;
  /** MIME type ('' when unknown). */
  type: string;
}
