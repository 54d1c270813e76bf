/**
 * G.711 µ-law and A-law (the service's `mulaw`/`ulaw` and `alaw` codecs, 1 byte per sample, and
 * SIP's 8 kHz audio) over the `alawmulaw` package.
 *
 * The package companding is table-exact on decode. On encode it takes a negative sample's
 * magnitude as -x, while the ITU-T reference (G.191's g711.c, which feeds the codec the 13/14-bit
 * two's-complement value) uses ~x = -x-1: the two disagree on 127 negative boundary samples per
 * law. We feed the package x+1 for negative x so every one of the 65,536 inputs encodes exactly as
 * the reference does (test/unit/shared/audio/g711.test.ts checks them all). Encoding goes through
 * a 64 KiB table built once per law on first use, so a 20 ms frame costs a lookup per sample.
 */
// The package's UMD build by path, not its `module` entry: Node (main, the media process, the
// tests) reads `main` (that UMD file, CommonJS, its laws on the default export) while a bundler
// would pick the ES entry (named exports, no default). Naming the one file gives both the same
// CommonJS module, so the default import means the same thing in Node and in Vite (the page).
import alawmulaw from 'alawmulaw/dist/alawmulaw.js';

interface Law {
  encodeSample(sample: number): number;
  decodeSample(code: number): number;
}

const library: { mulaw: Law; alaw: Law } = alawmulaw;

function buildTables(law: Law): { encode: Uint8Array; decode: Int16Array } {
  const encode = new Uint8Array(65536);
  for (let x = -32768; x < 32768; x++) {
    // -1 has magnitude 0 in the reference, which is also the package's bottom interval for -1.
    const input = x < -1 ? x + 1 : x;
    encode[x & 0xffff] = law.encodeSample(input) & 0xff;
  }
  const decode = new Int16Array(256);
  for (let code = 0; code < 256; code++) decode[code] = law.decodeSample(code);
  return { encode, decode };
}

let mu: { encode: Uint8Array; decode: Int16Array } | null = null;
let a: { encode: Uint8Array; decode: Int16Array } | null = null;
const muTables = () => (mu ??= buildTables(library.mulaw));
const aTables = () => (a ??= buildTables(library.alaw));

function encodeWith(table: Uint8Array, samples: Int16Array): Uint8Array {
  const out = new Uint8Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = table[samples[i] & 0xffff];
  return out;
}

function decodeWith(table: Int16Array, codes: Uint8Array): Int16Array {
  const out = new Int16Array(codes.length);
  for (let i = 0; i < codes.length; i++) out[i] = table[codes[i]];
  return out;
}

/** PCM16 samples -> µ-law bytes (one per sample). */
export function encodeMulaw(samples: Int16Array): Uint8Array {
  return encodeWith(muTables().encode, samples);
}

/** µ-law bytes -> PCM16 samples. */
export function decodeMulaw(codes: Uint8Array): Int16Array {
  return decodeWith(muTables().decode, codes);
}

/** PCM16 samples -> A-law bytes (one per sample). */
export function encodeAlaw(samples: Int16Array): Uint8Array {
  return encodeWith(aTables().encode, samples);
}

/** A-law bytes -> PCM16 samples. */
export function decodeAlaw(codes: Uint8Array): Int16Array {
  return decodeWith(aTables().decode, codes);
}
