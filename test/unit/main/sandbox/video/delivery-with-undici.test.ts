/**
 * The sandbox's upload of a finished video to `output.upload_url`, with Node's own fetch while the
 * npm `undici` is loaded, as it is in main (main/api/client.ts). The upload gave a content-length
 * header by hand, and Node 20's fetch then failed every such request (UND_ERR_INVALID_ARG): in
 * browser mode, where the sandbox runs inside main, every upload failed. An isolated test of the
 * sandbox alone never loads the two together.
 */
import 'undici';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliver, type DeliveryDeps } from '../../../../../main/sandbox/video/delivery';

let server: Server;
let url: string;
const received: Array<{ length: string | undefined; type: string | undefined; bytes: number }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => {
      received.push({ length: req.headers['content-length'], type: req.headers['content-type'], bytes });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/upload/fox.mp4`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('video delivery with the npm undici loaded', () => {
  it('PUTs the MP4 with its length and type, and reports no storage error', async () => {
    const bytes = new Uint8Array(4096).fill(7);
    const deps = { log: () => undefined } as unknown as DeliveryDeps;
    const done = await deliver({ team: 't', uploadUrl: url, storage: null }, bytes, deps);
    expect(done.storageError).toBeNull();
    expect(received).toEqual([{ length: '4096', type: 'video/mp4', bytes: 4096 }]);
  });
});
