/**
 * Test audio: real speech from the eSpeak NG command line (a test-only system tool) as 16-bit PCM,
 * plus silence and concatenation, so a test knows exactly where speech and silence are.
 */
import { execFileSync } from 'node:child_process';

export interface Clip {
  pcm: Int16Array;
  rate: number;
}

/** Speech for `text` in an eSpeak voice (`en-us`, `en-us+f3`, ...) at a pitch (0-99). */
export function speak(text: string, voice = 'en-us', pitch = 50): Clip {
  const wav = execFileSync('espeak-ng', ['-v', voice, '-p', String(pitch), '--stdout', text], { maxBuffer: 64 * 1024 * 1024 });
  const at = wav.indexOf('data') + 8;
  const rate = wav.readUInt32LE(24);
  const bytes = wav.subarray(at, at + ((wav.length - at) & ~1));
  const pcm = new Int16Array(bytes.length / 2);
  for (let i = 0; i < pcm.length; i++) pcm[i] = bytes.readInt16LE(i * 2);
  return { pcm, rate };
}

export function silence(ms: number, rate: number): Int16Array {
  return new Int16Array(Math.round((rate * ms) / 1000));
}

export function concat(...parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** RMS of a time range of a clip. */
export function rmsOf(pcm: Int16Array, rate: number, startS: number, endS: number): number {
  const a = Math.max(0, Math.floor(startS * rate));
  const b = Math.min(pcm.length, Math.ceil(endS * rate));
  let sum = 0;
  for (let i = a; i < b; i++) sum += pcm[i] * pcm[i];
  return b > a ? Math.sqrt(sum / (b - a)) : 0;
}

/** Little-endian bytes of PCM. */
export function pcmBytes(pcm: Int16Array): Uint8Array {
  const out = Buffer.alloc(pcm.length * 2);
  for (let i = 0; i < pcm.length; i++) out.writeInt16LE(pcm[i], i * 2);
  return out;
}

/** Two channels interleaved. */
export function interleave(left: Int16Array, right: Int16Array): Int16Array {
  const n = Math.max(left.length, right.length);
  const out = new Int16Array(n * 2);
  for (let i = 0; i < n; i++) {
    out[2 * i] = left[i] ?? 0;
    out[2 * i + 1] = right[i] ?? 0;
  }
  return out;
}

/** The packets of an Ogg stream (pages and lacing undone), headers included. */
export function oggPackets(bytes: Uint8Array): Uint8Array[] {
  const packets: Uint8Array[] = [];
  let pending: number[] = [];
  let at = 0;
  while (at + 27 <= bytes.length) {
    if (String.fromCharCode(...bytes.subarray(at, at + 4)) !== 'OggS') throw new Error(`no Ogg page at ${at}`);
    const segments = bytes[at + 26];
    const table = bytes.subarray(at + 27, at + 27 + segments);
    let body = at + 27 + segments;
    for (const len of table) {
      pending.push(...bytes.subarray(body, body + len));
      body += len;
      if (len < 255) {
        packets.push(Uint8Array.from(pending));
        pending = [];
      }
    }
    at = body;
  }
  return packets;
}
