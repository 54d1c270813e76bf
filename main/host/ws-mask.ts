/**
 * WebSocket (un)masking four bytes at a time, for `ws`. Every frame a page sends is masked
 * (RFC 6455 §5.3) and `ws` unmasks it in plain JavaScript one byte at a time unless a native
 * helper is there: measured 8–12 ms per MiB on this 2-core machine, which alone held browser
 * mode's page → main uploads (1 MiB binary frames) to ~25 MiB/s under load and ~100 MiB/s idle.
 * XOR over 32-bit words is ~5x faster (~600 MiB/s) and needs no native module.
 *
 * `ws` (lib/buffer-util.js, 8.x) takes `websocketMask` / `websocketUnmask` from the `http`
 * module when it has them, once, when it is first loaded: `installWsMask()` must run before
 * anything imports `ws` (the browser entry calls it first and loads the rest afterwards), and
 * `wsMaskInstalled()` says whether `ws` took it. A runtime that already provides them (a native
 * implementation) keeps its own.
 */
import http from 'node:http';
import { createRequire } from 'node:module';

type MaskFn = (source: Uint8Array, mask: Uint8Array, output: Uint8Array, offset: number, length: number) => void;
type UnmaskFn = (buffer: Uint8Array, mask: Uint8Array) => void;

/** The mask's four bytes rotated to start at `start`, as one native-endian word. */
function maskWord(mask: Uint8Array, start: number): number {
  const bytes = new Uint8Array([mask[start & 3], mask[(start + 1) & 3], mask[(start + 2) & 3], mask[(start + 3) & 3]]);
  return new Uint32Array(bytes.buffer)[0];
}

/** XORs `bytes` with `mask` in place, four bytes at a time from the first 4-byte-aligned one. */
function xorInPlace(bytes: Uint8Array, mask: Uint8Array): void {
  const length = bytes.byteLength;
  const head = Math.min(length, (4 - (bytes.byteOffset & 3)) & 3);
  let i = 0;
  for (; i < head; i++) bytes[i] ^= mask[i & 3];
  const words = (length - i) >>> 2;
  if (words > 0) {
    const m = maskWord(mask, i);
    const view = new Uint32Array(bytes.buffer, bytes.byteOffset + i, words);
    for (let k = 0; k < words; k++) view[k] ^= m;
    i += words * 4;
  }
  for (; i < length; i++) bytes[i] ^= mask[i & 3];
}

/**
 * Masks `length` bytes of `source` into `output` at `offset`: copied first (a memcpy), then
 * XORed in place, so the words line up whatever the two offsets are.
 */
export const xorMask: MaskFn = (source, mask, output, offset, length) => {
  const target = output.subarray(offset, offset + length);
  if (source !== output || offset !== 0) target.set(source.subarray(0, length));
  xorInPlace(target, mask);
};

/** Frames unmasked through `xorUnmask` so far (how `wsMaskInstalled` sees that `ws` uses it). */
let unmasked = 0;

/** Unmasks `buffer` in place. */
export const xorUnmask: UnmaskFn = (buffer, mask) => {
  unmasked++;
  xorInPlace(buffer, mask);
};

interface HttpMaskHooks {
  websocketMask?: MaskFn;
  websocketUnmask?: UnmaskFn;
}

/** Whether installWsMask put ours in (false: not called, or the runtime has its own). */
let ours = false;

/** Offers the word-wise (un)mask to `ws`; call before `ws` is first imported. */
export function installWsMask(): void {
  const hooks = http as unknown as HttpMaskHooks;
  if (typeof hooks.websocketMask === 'function' && typeof hooks.websocketUnmask === 'function') return;
  ours = true;
  hooks.websocketMask = xorMask;
  hooks.websocketUnmask = xorUnmask;
}

/**
 * True when `ws` unmasks without its byte loop: the runtime has its own hooks, or ours were
 * installed and a masked 64-byte frame fed to ws's receiver reaches them (ws was loaded after).
 */
export function wsMaskActive(): Promise<boolean> {
  const hooks = http as unknown as HttpMaskHooks;
  if (!ours) return Promise.resolve(typeof hooks.websocketUnmask === 'function');
  const { Receiver } = createRequire(import.meta.url)('ws') as { Receiver: new (options: { isServer: boolean }) => NodeJS.WritableStream & { on(event: 'message', listener: () => void): void } };
  const receiver = new Receiver({ isServer: true });
  const before = unmasked;
  // FIN + binary, masked with a 64-byte payload, mask 1 2 3 4.
  const frame = new Uint8Array(2 + 4 + 64);
  frame.set([0x82, 0x80 | 64, 1, 2, 3, 4]);
  return new Promise((resolve) => {
    receiver.on('message', () => resolve(unmasked > before));
    receiver.write(frame);
  });
}
