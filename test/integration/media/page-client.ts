/**
 * A page's side of the media plane in its own Node process (a browser tab is another process
 * too): renderer/src/bridge/media-channel.ts over a `ws` WebSocket to the media process. It
 * subscribes to the synthetic source's `out` stream, answers each frame with one on the `in`
 * stream carrying the same index, and after `frames` frames prints one JSON line of what it saw
 * (counts, order, and the timing figures the benchmark reads) and exits.
 *
 *   tsx page-client.ts <url> <token> <origin> <outStream> <inStream> <frames> [intervalMs]
 */
import WebSocket from 'ws';
import { createMediaChannel, webSocketFramePort } from '../../../renderer/src/bridge/media-channel';
import type { SocketLike } from '../../../renderer/src/bridge/ws-transport';
import { FrameKind } from '../../../shared/media-frames/frame';
import { intervalJitter, percentile } from '../../../shared/media-frames/stats';
import { monotonicMs } from '../../../shared/media-frames/clock';

const [url, token, origin, outArg, inArg, framesArg, intervalArg] = process.argv.slice(2);
const outStream = Number(outArg);
const inStream = Number(inArg);
const frames = Number(framesArg);
const intervalMs = Number(intervalArg ?? 20);

const channel = createMediaChannel({
  connect: webSocketFramePort(
    async () => ({ url, token }),
    (u, protocols) => new WebSocket(u, protocols, { origin }) as unknown as SocketLike,
  ),
});

const indices: number[] = [];
const arrivals: number[] = [];
const ages: number[] = [];
channel.onFrame(outStream, (frame, info) => {
  arrivals.push(monotonicMs());
  if (info.ageMs !== undefined) ages.push(info.ageMs);
  const index = new DataView(frame.payload.buffer, frame.payload.byteOffset, 4).getUint32(0);
  indices.push(index);
  const echo = new Uint8Array(frame.payload.byteLength);
  echo.set(frame.payload);
  channel.send(inStream, FrameKind.Data, echo);
  if (indices.length === frames) finish();
});

function finish(): void {
  // Let the last echoes leave the queue before reporting.
  const done = () => {
    const stats = channel.stats();
    if (stats.queue.held > 0) return void setTimeout(done, 10);
    const jitter = intervalJitter(arrivals, intervalMs);
    process.stdout.write(
      `${JSON.stringify({
        received: indices.length,
        inOrder: indices.every((v, i) => v === i),
        stats,
        arrivalJitterMs: { p50: percentile(jitter, 50), p99: percentile(jitter, 99), max: Math.max(...jitter) },
        ageMs: { samples: ages.length, p50: percentile(ages, 50), p95: percentile(ages, 95), max: ages.length ? Math.max(...ages) : null },
      })}\n`,
    );
    setTimeout(() => {
      channel.close();
      process.exit(0);
    }, 50);
  };
  done();
}
