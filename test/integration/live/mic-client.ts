/**
 * A page's microphone in its own Node process (a browser tab is another process too): raw PCM16
 * mono from a file, sent as 20 ms frames on a media session's `mic` stream through
 * renderer/src/bridge/media-channel.ts, one frame every `intervalMs` (20 = real time; less is
 * faster). Prints one JSON line (frames sent, the channel's queue counters) and exits.
 *
 *   tsx mic-client.ts <url> <token> <origin> <micStream> <pcmFile> <sampleRate> <intervalMs> [startFrame] [totalFrames]
 *
 * With `totalFrames` the file is looped until that many frames were sent (the long-session benchmark).
 */
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import { createMediaChannel, webSocketFramePort } from '../../../renderer/src/bridge/media-channel';
import type { SocketLike } from '../../../renderer/src/bridge/ws-transport';
import { FrameKind } from '../../../shared/media-frames/frame';

const [url, token, origin, micArg, file, rateArg, intervalArg, startArg, totalArg] = process.argv.slice(2);
const mic = Number(micArg);
const frameBytes = (Number(rateArg) / 50) * 2;
const intervalMs = Number(intervalArg);
const pcm = readFileSync(file);
const fileFrames = Math.floor(pcm.byteLength / frameBytes);
const frames = totalArg ? Number(totalArg) : fileFrames;

const channel = createMediaChannel({
  connect: webSocketFramePort(
    async () => ({ url, token }),
    (u, protocols) => new WebSocket(u, protocols, { origin }) as unknown as SocketLike,
  ),
});

let next = Number(startArg ?? 0);
let started = 0;
const first = next;
const tick = () => {
  // Frame k is due at start + k·interval, so a late tick does not slow the whole stream down.
  while (next < frames && started + (next - first) * intervalMs <= performance.now()) {
    const k = next % fileFrames;
    channel.send(mic, FrameKind.Data, new Uint8Array(pcm.subarray(k * frameBytes, (k + 1) * frameBytes)));
    next++;
  }
  if (next < frames) return void setTimeout(tick, Math.max(1, intervalMs / 2));
  const drain = () => {
    const stats = channel.stats();
    if (stats.queue.held > 0) return void setTimeout(drain, 10);
    process.stdout.write(`${JSON.stringify({ sent: next - first, frames, stats })}\n`);
    setTimeout(() => {
      channel.close();
      process.exit(0);
    }, 100);
  };
  drain();
};
// Frames sent before the channel is open would wait in its queue and expire: start once it is.
const whenOpen = () => {
  if (channel.state() !== 'open') return void setTimeout(whenOpen, 10);
  started = performance.now();
  tick();
};
whenOpen();
