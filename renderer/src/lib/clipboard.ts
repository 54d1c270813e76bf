/**
 * The one way the page writes to the clipboard (CopyButton, the code-block buttons, the code
 * export). A rejection says why: no clipboard API (an insecure origin) or the browser refused.
 */

/** Writes `text` to the system clipboard. */
export function writeClipboard(text: string): Promise<void> {
  const clipboard = globalThis.navigator?.clipboard;
  if (!clipboard) return Promise.reject(new Error('Clipboard is not available'));
  return clipboard.writeText(text);
}
