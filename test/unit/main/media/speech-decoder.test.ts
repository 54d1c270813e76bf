// The speech-output decoder takes the service's audio cut anywhere (a WebSocket delta can end in
// the middle of a sample, a stereo frame or the WAV header) and must give the same samples as the
// whole file decoded at once.
import { describe, expect, it } from 'vitest';
import { encodeAlaw, encodeMulaw } from '../../../../shared/audio/g711';
import { mixToMono } from '../../../../shared/audio/pcm';
import { Resampler } from '../../../../shared/audio/resampler';
import { encodeWav } from '../../../../shared/audio/wav';
import { speechDecoder } from '../../../../main/media/speech-decoder';
import type { TtsCodec } from '../../../../shared/wire/tts';

/** A second of a 440 Hz tone with a slow sweep: every sample different enough to catch a shift. */
function tone(rate: number, channels = 1): Int16Array {
  const frames = rate;
  const out = new Int16Array(frames * channels);
  for (let i = 0; i < frames; i++) for (let c = 0; c < channels; c++) out[i * channels + c] = Math.round(12000 * Math.sin((2 * Math.PI * (440 + c * 110 + i / 50) * i) / rate));
  return out;
}

function le(samples: Int16Array): Uint8Array {
  const out = new Uint8Array(samples.length * 2);
  const view = new DataView(out.buffer);
  samples.forEach((s, i) => view.setInt16(i * 2, s, true));
  return out;
}

/** Feeds `bytes` in pieces of the given (odd, uneven) sizes, cycling through them. */
async function decodeInPieces(codec: TtsCodec, rate: number, bytes: Uint8Array, sizes: number[]): Promise<Int16Array> {
  const d = speechDecoder(codec, rate);
  const parts: Int16Array[] = [];
  for (let at = 0, k = 0; at < bytes.length; k++) {
    const n = sizes[k % sizes.length];
    parts.push(await d.push(bytes.subarray(at, at + n)));
    at += n;
  }
  parts.push(d.end());
  d.dispose();
  return Int16Array.from(parts.flatMap((p) => [...p]));
}

const SIZES = [1, 7, 43, 2, 1000, 3, 4097];

describe('speechDecoder', () => {
  it('pcm: 16-bit LE cut in the middle of samples gives every sample once, in order', async () => {
    const pcm = tone(24000);
    expect(await decodeInPieces('pcm', 24000, le(pcm), SIZES)).toEqual(pcm);
  });

  it('µ-law (and its alias ulaw) and A-law decode to the G.711 values', async () => {
    const pcm = tone(8000);
    const mu = await decodeInPieces('mulaw', 8000, encodeMulaw(pcm), SIZES);
    expect(await decodeInPieces('ulaw', 8000, encodeMulaw(pcm), SIZES)).toEqual(mu);
    expect(mu.length).toBe(pcm.length);
    // G.711 is lossy: within its step size of the source, never off by a whole shift.
    expect(Math.max(...mu.map((v, i) => Math.abs(v - pcm[i])))).toBeLessThan(800);
    const a = await decodeInPieces('alaw', 8000, encodeAlaw(pcm), SIZES);
    expect(a.length).toBe(pcm.length);
    expect(Math.max(...a.map((v, i) => Math.abs(v - pcm[i])))).toBeLessThan(800);
  });

  it('wav: a header split across pieces, then the data as it comes', async () => {
    const pcm = tone(16000);
    expect(await decodeInPieces('wav', 16000, encodeWav({ sampleRate: 16000, channels: 1, samples: pcm }), SIZES)).toEqual(pcm);
  });

  it('wav: stereo at another rate is mixed down and resampled to the declared rate, frames never split', async () => {
    const pcm = tone(48000, 2);
    const got = await decodeInPieces('wav', 24000, encodeWav({ sampleRate: 48000, channels: 2, samples: pcm }), SIZES);
    const r = new Resampler(48000, 24000, 1);
    expect(got).toEqual(new Int16Array([...r.push(mixToMono(pcm, 2)), ...r.flush()]));
  });

  it('wav: what is not 16-bit PCM, µ-law or A-law is refused with a reason', async () => {
    const wav = encodeWav({ sampleRate: 16000, channels: 1, samples: tone(16000) });
    new DataView(wav.buffer).setUint16(20, 3, true); // float
    await expect(speechDecoder('wav', 16000).push(wav)).rejects.toThrow(/cannot be played: expected 16-bit PCM/);
  });
});
