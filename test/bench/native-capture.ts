// Benchmark: native capture in the media process. main/audio's Capture runs INSIDE the media
// process (forked from this process, which plays main), on naudiodon with ALSA's `file` device
// (test/audio/asoundrc.template: a 48 kHz stereo raw infile, here a 440 Hz tone made with sox).
// That device is not paced, so the media process's WORKBENCH_TEST_AUDIO_INPUT hook paces it to
// real time (whole 20 ms periods, each tick set for the next period's boundary by
// performance.now(), as a card's interrupts) and bounds it to the file. The `native-capture` session hands each 20 ms frame to the page
// channel (the frame router's send) and reports, per frame, when its audio arrived from the device
// (Capture's capturedAt) and when it was sent. Two phases in the same run: main idle, then main
// blocked 200 ms every second (WORKBENCH_TEST_BLOCK_MAIN_MS's hook, in this process).
// Figures per phase:
// - frameIntervalJitterMs: |interval − 20 ms| between consecutive frame sends (p50/p99/max);
// - captureToSendMs: capture timestamp → frame sent on the page channel (p50/p95/max);
// - frames, and the load average when the phase ran (the machine is shared).
// Then the same device into a live transcription (main/live + the media process + the embedded
// sandbox's WebSocket /v1/stt), per 100 ms chunk the transcription session sends:
// - lastFrameToSocketMs: its last frame's capture → written to the service socket (p50/p95/max);
// - firstFrameToSocketMs: its first frame's capture → the socket (includes the 80 ms the chunk
//   gathers by design: frames go out in 100 ms binary messages).
//
// Run alone: npx tsx test/bench/run.ts nativeCapture   (needs libasound2 and sox)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBlockMainHook } from '../../main/media/block-main';
import { forkLauncher } from '../../main/media/fork-launcher';
import { MediaPlane, type MediaPlaneEvent } from '../../main/media/media-plane';
import { AUDIO_INPUT_ENV } from '../../main/media/test-audio-hook';
import { intervalJitter, percentile } from '../../shared/media-frames/stats';
import { startLiveApp } from '../integration/live/harness';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PHASE_MS = 10_000;
const BLOCK_MS = 200;
const round = (n: number) => (Number.isFinite(n) ? Math.round(n * 100) / 100 : null);

function summary(values: number[], p: number) {
  return { p50: round(percentile(values, 50)), [`p${p}`]: round(percentile(values, p)), max: round(values.length ? Math.max(...values) : Number.NaN) };
}

async function phase(home: string, name: string, blockMain: boolean) {
  const lines: string[] = [];
  const plane = new MediaPlane({
    launch: forkLauncher({ entry: resolve(ROOT, 'main/media/entry.ts'), execArgv: ['--import', 'tsx'], log: (l) => lines.push(l), env: { ...process.env, HOME: home, [AUDIO_INPUT_ENV]: `${PHASE_MS + 5000}:silence` } }),
    log: (l) => lines.push(l),
    transport: { kind: 'websocket', origins: () => ['http://127.0.0.1:1'] },
  });
  const stop = blockMain ? startBlockMainHook({ WORKBENCH_TEST_BLOCK_MAIN_MS: String(BLOCK_MS) }, (l) => lines.push(l)) : () => {};
  try {
    const devices = await plane.devices();
    if (!devices.ok) throw new Error(JSON.stringify(devices));
    const device = devices.value.devices.find((d) => d.id === devices.value.defaultInputId);
    const timings: number[] = [];
    const ended = new Promise<MediaPlaneEvent>((done) =>
      plane.onEvent((e) => {
        if (e.type === 'session-event' && e.sessionId === name && e.event === 'timings') timings.push(...(e.data as { captureSent: number[] }).captureSent);
        if (e.type === 'session-ended' && e.sessionId === name) done(e);
      }),
    );
    const load = loadavg();
    const started = await plane.startSession(name, 'native-capture', { maxMs: PHASE_MS, timings: true, waitForSubscriber: false });
    if (!started.ok) throw new Error(JSON.stringify(started));
    const end = await ended;
    const captured = timings.filter((_, i) => i % 2 === 0);
    const sent = timings.filter((_, i) => i % 2 === 1);
    return {
      mainBlockedMsPerSecond: blockMain ? BLOCK_MS : 0,
      device: device ? `${device.id} (${device.defaultSampleRate} Hz), paced by ${AUDIO_INPUT_ENV}` : null,
      endedWith: 'error' in end ? end.error : 'limit',
      frames: sent.length,
      frameIntervalJitterMs: summary(intervalJitter(sent, 20), 99),
      captureToSendMs: summary(sent.map((s, i) => s - captured[i]), 95),
      loadAverage1m: round(load[0]),
    };
  } finally {
    stop();
    await plane.dispose();
  }
}

async function socketPhase(home: string, blockMain: boolean) {
  const env = await startLiveApp({ mediaEnv: { ...process.env, HOME: home, [AUDIO_INPUT_ENV]: `${PHASE_MS + 5000}:silence` } });
  const stop = blockMain ? startBlockMainHook({ WORKBENCH_TEST_BLOCK_MAIN_MS: String(BLOCK_MS) }, () => {}) : () => {};
  const chunks: Array<{ at: number; lastAt: number; sentAt: number }> = [];
  try {
    env.plane.onEvent((e) => {
      if (e.type === 'session-event' && e.event === 'audio') {
        const d = e.data as { at: number; lastAt: number; sentAt: number };
        chunks.push({ at: d.at, lastAt: d.lastAt, sentAt: d.sentAt });
      }
    });
    const load = loadavg();
    const id = await env.app.live.start('transcription', { query: { sample_rate: 16_000, interim_results: true }, source: { kind: 'native' } }, { origin: 'window' });
    await new Promise((r) => setTimeout(r, PHASE_MS));
    await env.app.live.stop(id);
    return {
      mainBlockedMsPerSecond: blockMain ? BLOCK_MS : 0,
      chunks: chunks.length,
      lastFrameToSocketMs: summary(chunks.map((c) => c.sentAt - c.lastAt), 95),
      firstFrameToSocketMs: summary(chunks.map((c) => c.sentAt - c.at), 95),
      loadAverage1m: round(load[0]),
    };
  } finally {
    stop();
    await env.close();
  }
}

export async function run(): Promise<Record<string, unknown>> {
  const home = mkdtempSync(join(tmpdir(), 'bench-capture-'));
  try {
    const template = readFileSync(join(ROOT, 'test/audio/asoundrc.template'), 'utf8');
    writeFileSync(join(home, '.asoundrc'), template.replaceAll('PLAYBACK_RAW_FILE', join(home, 'played.raw')).replaceAll('CAPTURE_RAW_FILE', join(home, 'capture.raw')));
    execFileSync('sox', ['-n', '-r', '48000', '-c', '2', '-b', '16', '-e', 'signed-integer', '-t', 'raw', join(home, 'capture.raw'), 'synth', String((PHASE_MS + 5000) / 1000), 'sine', '440', 'vol', '0.3']);
    const idle = await phase(home, 'capture-idle', false);
    const blocked = await phase(home, 'capture-blocked', true);
    const serviceSocket = { idle: await socketPhase(home, false), blocked: await socketPhase(home, true) };
    return { targets: { frameIntervalJitterP99Ms: 5, captureToSendP95Ms: 30 }, pageChannel: { idle, blocked }, serviceSocket };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
