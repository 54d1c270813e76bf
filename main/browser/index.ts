/**
 * Browser-mode entry (`node out/main/browser.js [--port N] [--data-dir DIR] [--sandbox-port N] [--open]`):
 * the same app as Electron, served to a local browser tab (run.ts). Before anything loads `ws`,
 * its frame unmasking is switched to the word-wise one (host/ws-mask.ts): every byte a page
 * uploads arrives masked, and ws's byte loop held uploads to ~25 MiB/s. Hence the dynamic
 * import: a static one would load `ws` (an external, hoisted import in the build) first.
 */
import { installWsMask } from '../host/ws-mask';

installWsMask();
const { runBrowser } = await import('./run');
runBrowser(import.meta.url);
