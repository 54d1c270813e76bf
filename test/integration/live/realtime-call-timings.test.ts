/**
 * The realtime call media session's `timings` option (for test/bench/realtime-call.ts): with it,
 * `timings` events give one [audio time, written to the socket] pair per microphone frame sent, in
 * order; without it, none. Against the embedded sandbox, a WAV file as the microphone. Counts and
 * order only, never durations.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeWav } from '../../../shared/audio/wav';
import { RealtimeCallInputSchema, initialRealtimeCallSnapshot, realtimeSessionBody } from '../../../shared/realtime-call';
import { speechPcm, startLiveApp } from './harness';

const CTX = { sessionId: 'test', signal: new AbortController().signal };
let env: Awaited<ReturnType<typeof startLiveApp>>;
let wavPath: string;

beforeAll(async () => {
  env = await startLiveApp();
  const pcm = await speechPcm(['Hello there.'], 24_000, 300);
  wavPath = join(env.dataDir, 'mic.wav');
  writeFileSync(wavPath, encodeWav({ samples: new Int16Array(pcm.buffer, pcm.byteOffset, pcm.byteLength / 2), sampleRate: 24_000, channels: 1 }));
}, 60_000);
afterAll(() => env?.close());

async function call(name: string, timings: boolean) {
  const { sandbox } = await env.app.handlers.connections.list({}, CTX);
  const input = RealtimeCallInputSchema.parse({ microphone: { kind: 'none' }, output: { kind: 'none' } });
  const { formats } = initialRealtimeCallSnapshot(input, 'test');
  const pairs: number[][] = [];
  let stats: { framesSent: number } | null = null;
  let ended = false;
  const off = env.plane.onEvent((e) => {
    if (e.type !== 'session-event' || e.sessionId !== name) return;
    if (e.event === 'timings') pairs.push((e.data as { captureSent: number[] }).captureSent);
    if (e.event === 'source-ended') ended = true;
    if (e.event === 'stats') stats = e.data as { framesSent: number };
  });
  const started = await env.plane.startSession(name, 'realtime-call', {
    connection: { baseUrl: `http://127.0.0.1:${sandbox.port}`, apiKey: sandbox.key },
    auth: { kind: 'key' },
    query: {},
    session: realtimeSessionBody(input, formats),
    seed: [],
    formats,
    microphone: { kind: 'file', path: wavPath, speed: 4 },
    output: { kind: 'none' },
    ...(timings ? { timings: true } : {}),
  });
  expect(started.ok).toBe(true);
  while (!ended) await new Promise((r) => setTimeout(r, 50));
  await env.plane.stopSession(name);
  while (!stats) await new Promise((r) => setTimeout(r, 20));
  off();
  return { values: pairs.flat(), framesSent: (stats as { framesSent: number }).framesSent };
}

describe('realtime call media session: timings option', () => {
  it('gives one [audio time, sent] pair per frame written, sent after its audio, in order', async () => {
    const { values, framesSent } = await call('timed', true);
    expect(framesSent).toBeGreaterThan(20);
    expect(values.length).toBe(framesSent * 2);
    for (let i = 0; i < values.length; i += 2) {
      expect(values[i + 1]!).toBeGreaterThanOrEqual(values[i]!);
      if (i >= 2) expect(values[i + 1]!).toBeGreaterThanOrEqual(values[i - 1]!);
    }
  }, 60_000);

  it('sends no timings unless asked', async () => {
    const { values, framesSent } = await call('untimed', false);
    expect(framesSent).toBeGreaterThan(20);
    expect(values).toEqual([]);
  }, 60_000);
});
