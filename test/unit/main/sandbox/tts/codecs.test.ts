/**
 * The text-to-speech codecs: G.711 against the ITU-T reference formulas for all 256 codes, WAV
 * headers, and MP3 keeping every spec sample rate at every bit rate (lamejs would resample).
 */
import { MPEGDecoder } from 'mpg123-decoder';
import { describe, expect, it } from 'vitest';
import { decodeAlaw, decodeMulaw, encodeAlaw, encodeMulaw } from '../../../../../shared/audio/g711';

const mulaw = { decode: decodeMulaw, encode: encodeMulaw };
const alaw = { decode: decodeAlaw, encode: encodeAlaw };
import { createEncoder, effectiveMp3BitRate, mp3Duration, TTS_BIT_RATES, TTS_SAMPLE_RATES, wavHeader } from '../../../../../main/sandbox/tts/codecs';

/** ITU-T G.711 µ-law decoding (the reference formula). */
function muLawReference(code: number): number {
  const u = ~code & 0xff;
  const exponent = (u >> 4) & 7;
  const mantissa = u & 0x0f;
  const magnitude = ((mantissa << 3) + 0x84) << exponent;
  return u & 0x80 ? 0x84 - magnitude : magnitude - 0x84;
}

/** ITU-T G.711 A-law decoding (the reference formula). */
function aLawReference(code: number): number {
  const a = code ^ 0x55;
  const exponent = (a >> 4) & 7;
  const mantissa = a & 0x0f;
  const magnitude = exponent === 0 ? (mantissa << 4) + 8 : ((mantissa << 4) + 0x108) << (exponent - 1);
  return a & 0x80 ? magnitude : -magnitude;
}

function sine(rate: number, seconds: number): Float32Array {
  return Float32Array.from({ length: Math.round(rate * seconds) }, (_, i) => 0.5 * Math.sin((2 * Math.PI * 440 * i) / rate));
}

describe('tts codecs', () => {
  it('µ-law and A-law decode every code as G.711 says, and re-encode to the same code', () => {
    const codes = Uint8Array.from({ length: 256 }, (_, i) => i);
    const mu = mulaw.decode(codes);
    const a = alaw.decode(codes);
    for (let c = 0; c < 256; c++) {
      expect(mu[c], `µ-law ${c}`).toBe(muLawReference(c));
      expect(a[c], `A-law ${c}`).toBe(aLawReference(c));
    }
    const muBack = mulaw.encode(mu);
    const aBack = alaw.encode(a);
    for (let c = 0; c < 256; c++) {
      // µ-law has two zeros (0x7f, 0xff): both decode to 0, which encodes as 0xff.
      expect(muBack[c], `µ-law ${c}`).toBe(c === 0x7f ? 0xff : c);
      expect(aBack[c], `A-law ${c}`).toBe(c);
    }
  });

  it('encodes mulaw and alaw one byte per sample, decoding back within G.711 step size', async () => {
    const input = sine(8000, 0.1);
    for (const [codec, lib] of [['mulaw', mulaw], ['alaw', alaw]] as const) {
      const enc = createEncoder({ codec, sampleRate: 8000, bitRate: 128000 });
      const bytes = await enc.write(input);
      expect(bytes.length).toBe(input.length);
      const back = lib.decode(bytes);
      for (let i = 0; i < input.length; i++) expect(Math.abs(back[i] / 32768 - input[i])).toBeLessThan(0.02);
    }
  });

  it('writes a valid 44-byte WAV header for every rate, exact or streaming', () => {
    for (const rate of TTS_SAMPLE_RATES) {
      const h = new DataView(wavHeader(rate, 1000).buffer);
      expect(String.fromCharCode(...new Uint8Array(h.buffer, 0, 4))).toBe('RIFF');
      expect(h.getUint32(4, true)).toBe(36 + 2000);
      expect(h.getUint32(24, true)).toBe(rate);
      expect(h.getUint32(28, true)).toBe(rate * 2);
      expect(h.getUint32(40, true)).toBe(2000);
      expect(new DataView(wavHeader(rate, null).buffer).getUint32(4, true)).toBe(0xffffffff);
    }
  });

  it('keeps every spec sample rate in MP3 at every bit rate, and states the length a decoder plays', async () => {
    const decoder = new MPEGDecoder();
    await decoder.ready;
    // Every rate at the default, and every combination lamejs would otherwise resample or refuse.
    const combos = [...TTS_SAMPLE_RATES.map((r) => [r, 128000]), [8000, 192000], [16000, 192000], [24000, 32000], [44100, 32000], [48000, 32000], [48000, 192000]];
    expect(TTS_BIT_RATES).toContain(32000);
    for (const [rate, bitRate] of combos) {
      {
        const enc = createEncoder({ codec: 'mp3', sampleRate: rate, bitRate });
        const input = sine(rate, 0.5);
        const bytes = new Uint8Array([...(await enc.write(input)), ...(await enc.end())]);
        const decoded = decoder.decode(bytes);
        await decoder.reset();
        expect(decoded.sampleRate, `${rate} Hz at ${bitRate}`).toBe(rate);
        expect(Math.abs(decoded.samplesDecoded / rate - mp3Duration(bytes)), `${rate} Hz at ${bitRate}`).toBeLessThanOrEqual(0.05);
        expect(Math.abs(mp3Duration(bytes) - 0.5), `${rate} Hz at ${bitRate}`).toBeLessThan(0.2);
        // The asked bit rate when the format carries it at this rate.
        const kbps = (bytes.length * 8) / mp3Duration(bytes) / 1000;
        expect(Math.abs(kbps - effectiveMp3BitRate(rate, bitRate) / 1000)).toBeLessThan(effectiveMp3BitRate(rate, bitRate) / 1000 * 0.1);
      }
    }
    decoder.free();
  });
});
