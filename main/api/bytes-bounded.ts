/**
 * A 2xx answer read whole into memory, at most `maxBytes`: past that, reading stops (the socket
 * is closed) and `tooLarge` says so, nothing kept. For answers the app needs in one piece and
 * knows the size of (a speech file over REST, a voice's reference clip); larger things go to a
 * file (download.ts).
 */
import type { ApiClient, RequestOptions, StreamOutcome } from './client';

export interface BoundedBytes {
  outcome: StreamOutcome;
  /** The body (empty when the request failed or the answer was too large). */
  bytes: Buffer;
  /** Bytes received, counting the chunk that went over the bound. */
  received: number;
  tooLarge: boolean;
}

export async function readBytesBounded(client: ApiClient, req: RequestOptions, maxBytes: number): Promise<BoundedBytes> {
  const chunks: Uint8Array[] = [];
  let received = 0;
  let tooLarge = false;
  const outcome = await client.bytes(req, {
    onChunk(chunk) {
      received += chunk.byteLength;
      if (received > maxBytes) {
        tooLarge = true;
        return false;
      }
      chunks.push(chunk);
      return true;
    },
  });
  const whole = outcome.ok && !tooLarge;
  return { outcome, bytes: whole ? Buffer.concat(chunks) : Buffer.alloc(0), received, tooLarge };
}
