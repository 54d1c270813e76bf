// The word-wise WebSocket (un)mask (main/host/ws-mask.ts): the same bytes as RFC 6455's byte loop
// at every alignment and length, and `ws` really using it when installed before ws loads (a child
// process, since this one has loaded ws already), with a 1 MiB binary frame arriving intact.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { xorMask, xorUnmask } from '../../../../main/host/ws-mask';

const MASK = new Uint8Array([0x9a, 0x17, 0xe4, 0x3c]);

function reference(source: Uint8Array, mask: Uint8Array): Uint8Array {
  return source.map((byte, i) => byte ^ mask[i & 3]);
}

function pattern(length: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => (i * 31 + 7) & 255);
}

describe('word-wise WebSocket masking', () => {
  it('unmasks in place like the byte loop at every start alignment and length', () => {
    for (let start = 0; start < 4; start++) {
      for (const length of [0, 1, 3, 4, 5, 7, 8, 23, 24, 63, 64, 65, 1027]) {
        const backing = new Uint8Array(start + length + 5).fill(0xee);
        backing.set(pattern(length), start);
        const view = backing.subarray(start, start + length);
        xorUnmask(view, MASK);
        expect([...view]).toEqual([...reference(pattern(length), MASK)]);
        // Nothing around the view is touched.
        expect([...backing.subarray(0, start), ...backing.subarray(start + length)].every((b) => b === 0xee)).toBe(true);
      }
    }
  });

  it('masks into an output at any offset, whatever the source alignment, leaving the source alone', () => {
    for (let sourceStart = 0; sourceStart < 4; sourceStart++) {
      for (const offset of [0, 2, 6, 10, 14]) {
        const length = 1000 + sourceStart;
        const source = new Uint8Array(sourceStart + length);
        source.set(pattern(length), sourceStart);
        const view = source.subarray(sourceStart);
        const output = new Uint8Array(offset + length + 3).fill(0xee);
        xorMask(view, MASK, output, offset, length);
        expect([...output.subarray(offset, offset + length)]).toEqual([...reference(pattern(length), MASK)]);
        expect([...output.subarray(0, offset), ...output.subarray(offset + length)].every((b) => b === 0xee)).toBe(true);
        expect([...view]).toEqual([...pattern(length)]);
      }
    }
  });

  it('is what ws uses when installed before ws loads, and a 1 MiB frame arrives intact', () => {
    const script = `
      import { installWsMask, wsMaskActive } from './main/host/ws-mask.ts';
      if (process.argv[1] === 'install') installWsMask();
      const { WebSocket, WebSocketServer } = await import('ws');
      const active = await wsMaskActive();
      const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
      await new Promise((r) => server.once('listening', r));
      const sent = Uint8Array.from({ length: 1 << 20 }, (_, i) => (i * 13) & 255);
      const got = new Promise((r) => server.once('connection', (s) => s.once('message', (d) => r(d))));
      const client = new WebSocket('ws://127.0.0.1:' + server.address().port);
      await new Promise((r) => client.once('open', r));
      client.send(sent);
      const data = await got;
      console.log(JSON.stringify({ active, intact: Buffer.compare(Buffer.from(sent), data) === 0 }));
      client.terminate();
      server.close();
    `;
    const run = (mode: string) =>
      JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, mode], { encoding: 'utf8' }).trim()) as unknown;
    expect(run('install')).toEqual({ active: true, intact: true });
    expect(run('plain')).toEqual({ active: false, intact: true });
  });
});
