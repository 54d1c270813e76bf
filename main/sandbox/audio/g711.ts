/**
 * G.711 µ-law / A-law from `alawmulaw`. Its `main` is a UMD bundle whose named exports Node's ESM
 * loader cannot see (only `default`), while bundlers and vitest take its ES `module` entry: this
 * accepts both shapes. (shared/audio/g711.ts, when it lands, replaces this.)
 */
import * as lib from 'alawmulaw';

type Codec = typeof lib.alaw;
const ns = lib as unknown as { alaw?: Codec; mulaw?: Codec; default?: { alaw: Codec; mulaw: Codec } };

export const alaw: Codec = ns.alaw ?? (ns.default as { alaw: Codec }).alaw;
export const mulaw: Codec = ns.mulaw ?? (ns.default as { mulaw: Codec }).mulaw;
