/**
 * The media process's entry (out/main/media.js; plain Node, no electron import). Before anything
 * loads `ws`, its frame unmasking is switched to the word-wise one (main/host/ws-mask.ts): pages
 * send their audio frames to this process's own WebSocket (frame-server.ts), masked. Hence the
 * dynamic import, as in main/browser/index.ts: a static one would load `ws` first.
 */
import { installWsMask } from '../host/ws-mask';

installWsMask();
await import('./process-main');
