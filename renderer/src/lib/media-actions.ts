/**
 * What the Images results, the Gallery and History do with a gallery item: save it to disk (the
 * Electron save dialog, or browser mode's one-time link) and copy it (the image itself where the
 * clipboard takes images, else its address; the answer says which happened).
 */
import type { WorkbenchApi } from '@shared/contract/api';
import type { GalleryItem } from '@shared/contract/gallery';
import { saveThroughBrowser } from './save-download';
import { writeClipboard } from './clipboard';

/** Saves the item; resolves with what to tell the user. */
export async function saveGalleryItem(api: Pick<WorkbenchApi, 'gallery'>, item: GalleryItem): Promise<string> {
  const result = await api.gallery.save({ id: item.id }, () => undefined).result;
  if (result.cancelled) return 'Not saved (the dialog was closed).';
  if (result.url) {
    saveThroughBrowser(result.url, result.filename);
    return `Saving ${result.filename} through the browser's download.`;
  }
  return `Saved to ${result.savedTo ?? result.filename}.`;
}

/** The item's address as a full URL (browser mode's are relative to the page). */
export function absoluteMediaUrl(url: string): string {
  try {
    return new URL(url, globalThis.location?.href).href;
  } catch {
    return url;
  }
}

/**
 * Copies an image: the picture (as PNG, which every clipboard takes) via ClipboardItem when the
 * browser has it, else its URL. Videos are copied as their URL.
 */
export async function copyGalleryItem(item: GalleryItem): Promise<'image' | 'url'> {
  const clipboard = globalThis.navigator?.clipboard;
  const Item = (globalThis as { ClipboardItem?: typeof ClipboardItem }).ClipboardItem;
  if (item.kind === 'image' && clipboard?.write && Item) {
    try {
      const png = fetch(item.url.url)
        .then((r) => r.blob())
        .then((blob) => (blob.type === 'image/png' ? blob : toPng(blob)));
      await clipboard.write([new Item({ 'image/png': png })]);
      return 'image';
    } catch {
      // The browser refused the image (permissions, type): fall back to the address.
    }
  }
  await writeClipboard(absoluteMediaUrl(item.url.url));
  return 'url';
}

async function toPng(blob: Blob): Promise<Blob> {
  const bitmap = await createImageBitmap(blob);
  const canvas = document.createElement('canvas');
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0);
  bitmap.close();
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('could not encode the image'))), 'image/png'));
}

/** The message that says what a copy did. */
export function copiedMessage(what: 'image' | 'url'): string {
  return what === 'image' ? 'Copied the image.' : 'Copied the image’s address (this browser cannot put images on the clipboard).';
}
