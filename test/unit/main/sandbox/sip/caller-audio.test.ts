/**
 * The caller's audio as a joined call streams it (real timers): `say` is the sandbox synthesiser's
 * speech in µ-law 8 kHz, byte for byte what /v1/tts makes for the caller's voice, in contiguous
 * 20 ms frames from the join; a file (44.1 kHz stereo WAV) comes out mixed, resampled to 8 kHz
 * µ-law with its pitch and length kept; then the caller hangs up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeMulaw } from '../../../../../shared/audio/g711';
import { encodeWav } from '../../../../../shared/audio/wav';
import type { CallEnd } from '../../../../../main/sandbox/sip/call-link';
import { startHarness, type Harness } from '../harness';
import { uploadFile } from '../routes/files-form';

let h: Harness;
const NUMBER = '+18005550150';
beforeAll(async () => {
  h = await startHarness({ sip: { webhookRetryDelaysMs: [] } });
  await h.post('/v2/phone-numbers', { origin: 'svc_provisioned', name: 'Audio', phone_number: NUMBER, webhook: { url: 'http://127.0.0.1:9/hook' } });
}, 60_000);
afterAll(() => h.sandbox.close());

/** Places a call, joins it and collects every frame until the caller hangs up. */
async function listen(script: Record<string, unknown>): Promise<{ frames: Array<{ at: number; bytes: Uint8Array }>; end: CallEnd }> {
  const res = await h.post('/sandbox/calls', { to: NUMBER, from: '+14155550100', script: { hangup_after_ms: 0, ...script } });
  expect(res.status).toBe(200);
  const { call_id: id } = (await res.json()) as { call_id: string };
  const frames: Array<{ at: number; bytes: Uint8Array }> = [];
  return new Promise((resolve, reject) => {
    const joined = h.sandbox.calls.find(id, 'team-a')?.join({
      audio: (bytes, at) => frames.push({ at, bytes: bytes.slice() }),
      dtmf: () => undefined,
      ended: (end) => resolve({ frames, end }),
    });
    if (!joined?.ok) reject(new Error('join failed'));
  });
}

function concat(frames: Array<{ bytes: Uint8Array }>): Uint8Array {
  const out = new Uint8Array(frames.length * 160);
  frames.forEach((f, i) => out.set(f.bytes, i * 160));
  return out;
}

describe('the caller\'s audio', () => {
  it('speaks `say` with the caller\'s voice: the synthesiser\'s µ-law 8 kHz bytes, 20 ms frames from 0, then hangs up', async () => {
    const text = 'Hello, I would like to check my order.';
    const { frames, end } = await listen({ say: text });
    expect(end.reason).toBe('caller_hung_up');
    expect(frames.map((f) => f.at)).toEqual(frames.map((_, i) => i * 20));
    expect(frames.every((f) => f.bytes.length === 160)).toBe(true);
    const tts = await h.post('/v1/tts', { text, language: 'en', voice_id: 'leo', output_format: { codec: 'mulaw', sample_rate: 8000 } });
    const expected = Buffer.from(((await tts.json()) as { audio: string }).audio, 'base64');
    // Whole frames: the synthesiser's bytes, then silence (0xFF) to the end of the last frame.
    expect(frames).toHaveLength(Math.ceil(expected.length / 160));
    const got = concat(frames);
    expect(Buffer.from(got.subarray(0, expected.length)).equals(expected)).toBe(true);
    expect([...got.subarray(expected.length)].every((b) => b === 0xff)).toBe(true);
    const pcm = decodeMulaw(got);
    const rms = Math.sqrt(pcm.reduce((s, v) => s + v * v, 0) / pcm.length);
    expect(rms).toBeGreaterThan(500);
  }, 30_000);

  it('plays an uploaded file (44.1 kHz stereo WAV) mixed and resampled to 8 kHz µ-law, pitch and length kept', async () => {
    const rate = 44_100;
    const n = rate / 2; // 0.5 s
    const samples = new Int16Array(n * 2);
    for (let i = 0; i < n; i++) {
      const v = Math.round(12_000 * Math.sin((2 * Math.PI * 440 * i) / rate));
      samples[2 * i] = v;
      samples[2 * i + 1] = v;
    }
    const file = await uploadFile(h, 'tone.wav', Buffer.from(encodeWav({ sampleRate: rate, channels: 2, samples })));
    const { frames, end } = await listen({ audio_file_id: file.id });
    expect(end.reason).toBe('caller_hung_up');
    expect(frames).toHaveLength(25);
    const pcm = decodeMulaw(concat(frames));
    // 440 Hz: 880 zero crossings a second, counted over the middle 0.4 s.
    let crossings = 0;
    for (let i = 401; i < 3600; i++) if (pcm[i - 1] < 0 !== pcm[i] < 0) crossings++;
    expect(crossings / (3199 / 8000)).toBeGreaterThan(860);
    expect(crossings / (3199 / 8000)).toBeLessThan(900);
    const peak = pcm.subarray(400, 3600).reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    expect(peak).toBeGreaterThan(11_000);
    expect(peak).toBeLessThan(13_000);
  }, 30_000);
});
