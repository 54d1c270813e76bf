// Benchmark: a realtime call on native audio against the app's embedded sandbox (/v1/realtime), the
// call's media session (main/media/realtime-call-session.ts) in the media process, forked from this
// process, which plays main (and hosts the sandbox). The microphone is naudiodon on ALSA's `file`
// device, its infile spoken questions with interruptions (espeak-ng, sox), paced to real time by
// the WORKBENCH_TEST_AUDIO_INPUT hook as in native-capture.ts; the answer plays on the paced FIFO
// card of test/audio/realtime-call-alsa.test.ts (fifo-sink.py reads it in real time and logs, on
// CLOCK_MONOTONIC, when the card turned silent). The session is started directly on the media
// plane with `timings: true` (the live kind does not ask for them), with the session body main's
// live kind sends (realtimeSessionBody). Two phases in the same run: main idle, then main blocked
// 200 ms every second (WORKBENCH_TEST_BLOCK_MAIN_MS's hook, in this process: the sandbox stalls
// with it, the media process should not). Figures per phase:
// - captureToSendMs: a frame's audio delivered by the device -> its `input_audio_buffer.append`
//   written to the socket (p50/p95/max; target p95 <= 30 ms);
// - sendIntervalJitterMs: |interval - 20 ms| between consecutive appends written (p50/p99/max;
//   target p99 <= 5 ms);
// - bargeInFlushMs: per barge-in, `speech_started` received in the media process -> the card's
//   first silent sample (fifo-sink.py; target <= 50 ms), and -> flush called (the `barge_in` mark);
// - captureIntervalJitterMs: the same between the device's deliveries (where a late send began);
// - frames, barge-ins, the load average (`uptime`'s 1/5/15 min) when the phase ran;
// - sessionStats.loop (main/media/loop-probe.ts): the media process's priority, event-loop delay,
//   GC pauses and CPU; captureIntervalsOffWithMediaGcPause: late deliveries a GC pause fell in.
// Both phases run with the media process's priority raised when the OS allows it (priority.ts),
// then again at normal priority (`normalPriority`; REALTIME_CALL_NORMAL_PRIORITY=0 skips them).
//
// Run alone: npx tsx test/bench/run.ts realtimeCall   (needs libasound2, sox, espeak-ng, python3)
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBlockMainHook } from '../../main/media/block-main';
import { AUDIO_INPUT_ENV } from '../../main/media/test-audio-hook';
import { MEDIA_PRIORITY_ENV } from '../../main/media/priority';
import { intervalJitter, percentile } from '../../shared/media-frames/stats';
import { RealtimeCallInputSchema, initialRealtimeCallSnapshot, realtimeSessionBody } from '../../shared/realtime-call';
import { FIFO_BYTES_PER_SECOND } from '../audio/speech-output-harness';
import { startLiveApp } from '../integration/live/harness';
import { loadProfile, totals, windowReport } from './cpu-profile-window';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CTX = { sessionId: 'bench', signal: new AbortController().signal };
const BLOCK_MS = 200;
/** Question + answer + interruption, this many times per phase. */
const ROUNDS = Number(process.env.REALTIME_CALL_ROUNDS ?? 3);
/** Diagnosis only (the committed figures use neither): REALTIME_CALL_OUTPUT=none plays nowhere; REALTIME_CALL_MEDIA_ARGS adds node flags to the media process (`--cpu-prof --cpu-prof-dir=/tmp/p`). */
const OUTPUT = process.env.REALTIME_CALL_OUTPUT === 'none' ? ({ kind: 'none' } as const) : ({ kind: 'native', device: 'ALSA:fifoplay' } as const);
const MEDIA_ARGS = (process.env.REALTIME_CALL_MEDIA_ARGS ?? '').split(' ').filter(Boolean);
/**
 * Diagnosis: REALTIME_CALL_PROFILE=<dir> forks each phase's media process with `--cpu-prof` into
 * <dir>/<phase>/ and adds `profile` to the phase: for each late capture tick (interval over 25 ms),
 * what the media process ran in the 25 ms before it (cpu-profile-window.ts), and its top self times.
 */
const PROFILE_DIR = process.env.REALTIME_CALL_PROFILE ?? null;
const round = (n: number) => (Number.isFinite(n) ? Math.round(n * 100) / 100 : null);

function summary(values: number[], p: number) {
  return { samples: values.length, p50: round(percentile(values, 50)), [`p${p}`]: round(percentile(values, p)), max: round(values.length ? Math.max(...values) : Number.NaN) };
}

export const loadAverage = () => loadavg().map((n) => Math.round(n * 100) / 100);

/** The capture infile (48 kHz stereo S16 raw): ROUNDS × (a question, 4 s for the answer to start, an interruption, 2 s). */
function writeCallAudio(home: string): number {
  const say = (name: string, text: string, padS: number) => {
    execFileSync('espeak-ng', ['-v', 'en-us', '-w', join(home, `${name}.wav`), text]);
    execFileSync('sox', [join(home, `${name}.wav`), '-r', '48000', '-c', '2', '-b', '16', '-e', 'signed-integer', '-t', 'raw', join(home, `${name}.raw`), 'pad', '0', String(padS)]);
    return readFileSync(join(home, `${name}.raw`));
  };
  // One phrase with no pause inside (a pause would end the turn early), as realtime-call-alsa.test.ts.
  const question = say('question', 'Could you tell me something about the weather today', 4);
  const interrupt = say('interrupt', 'Stop, stop. Wait a moment please.', 2);
  const all = Buffer.concat(Array.from({ length: ROUNDS }, () => [question, interrupt]).flat());
  writeFileSync(join(home, 'capture.raw'), all);
  return Math.floor((statSync(join(home, 'capture.raw')).size / (48_000 * 2 * 2)) * 1000);
}

async function phase(home: string, name: string, callMs: number, blockMain: boolean, priority: 'raised' | 'normal' = 'raised') {
  const fifo = join(home, `${name}.fifo`);
  const sinkLog = join(home, `${name}.sink.log`);
  execFileSync('mkfifo', [fifo]);
  writeFileSync(sinkLog, '');
  // The card's frames widened (16 channels of S32) so the one-page pipe holds 1.3 ms (fifo-sink.py).
  const sink = spawn('python3', [join(ROOT, 'test/audio/fifo-sink.py'), fifo, sinkLog, String(FIFO_BYTES_PER_SECOND), '64'], { stdio: 'ignore' });
  const rc = readFileSync(join(ROOT, 'test/audio/asoundrc.template'), 'utf8').replaceAll('PLAYBACK_RAW_FILE', join(home, 'played.raw')).replaceAll('CAPTURE_RAW_FILE', join(home, 'capture.raw'));
  writeFileSync(join(home, '.asoundrc'), `${rc}pcm.fifoplay {\n  type plug\n  slave {\n    pcm { type file slave.pcm "null" file "${fifo}" format "raw" }\n    format S32_LE\n    rate 48000\n    channels 16\n  }\n}\n`);
  const profileDir = PROFILE_DIR ? join(PROFILE_DIR, name) : null;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const execArgv = profileDir ? [...MEDIA_ARGS, '--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-interval=250'] : MEDIA_ARGS;
  const env = await startLiveApp({ mediaEnv: { ...process.env, HOME: home, [AUDIO_INPUT_ENV]: `${callMs}:silence`, ...(priority === 'normal' ? { [MEDIA_PRIORITY_ENV]: 'normal' } : {}) }, mediaExecArgv: execArgv });
  const stop = blockMain ? startBlockMainHook({ WORKBENCH_TEST_BLOCK_MAIN_MS: String(BLOCK_MS) }, (l) => env.logs.push(l)) : () => {};
  try {
    const { sandbox } = await env.app.handlers.connections.list({}, CTX);
    const timings: number[] = [];
    const marks: Array<{ mark: string; at: number }> = [];
    let stats: unknown = null;
    env.plane.onEvent((e) => {
      if (e.type !== 'session-event' || e.sessionId !== name) return;
      if (e.event === 'timings') timings.push(...(e.data as { captureSent: number[] }).captureSent);
      if (e.event === 'mark') marks.push(e.data as { mark: string; at: number });
      if (e.event === 'stats') stats = e.data;
    });
    const input = RealtimeCallInputSchema.parse({ microphone: { kind: 'native' }, output: OUTPUT });
    const { formats } = initialRealtimeCallSnapshot(input, 'bench');
    const load = loadAverage();
    const benchCpu0 = process.cpuUsage();
    const benchWall0 = performance.now();
    const started = await env.plane.startSession(name, 'realtime-call', {
      connection: { baseUrl: `http://127.0.0.1:${sandbox.port}`, apiKey: sandbox.key },
      auth: { kind: 'key' },
      query: {},
      session: realtimeSessionBody(input, formats),
      seed: [],
      formats,
      microphone: { kind: 'native' },
      output: OUTPUT,
      timings: true,
    });
    if (!started.ok) throw new Error(JSON.stringify(started));
    await new Promise((r) => setTimeout(r, callMs + 1500));
    await env.plane.stopSession(name);
    await new Promise((r) => setTimeout(r, 300));
    const benchCpu = process.cpuUsage(benchCpu0);
    const benchCpuPercent = round(((benchCpu.user + benchCpu.system) / 1000 / (performance.now() - benchWall0)) * 100);

    const captured = timings.filter((_, i) => i % 2 === 0);
    const sent = timings.filter((_, i) => i % 2 === 1);
    // The card's log on CLOCK_MONOTONIC (ns) moved onto the media clock (epoch ms: time origin +
    // performance.now(), as this process's; the two processes' clocks agree within a few ms).
    const monoMinusEpoch = Number(process.hrtime.bigint()) / 1e6 - (performance.timeOrigin + performance.now());
    const card = readFileSync(sinkLog, 'utf8').trim().split('\n').filter(Boolean).map((l) => l.split(' ')).map(([t, what]) => ({ at: Number(BigInt(t!)) / 1e6 - monoMinusEpoch, what }));
    const toSilent: number[] = [];
    const toFlush: number[] = [];
    for (const barge of marks.filter((m) => m.mark === 'barge_in')) {
      const speechAt = marks.filter((m) => m.mark === 'speech_started' && m.at <= barge.at).at(-1)?.at;
      if (speechAt === undefined) continue;
      toFlush.push(barge.at - speechAt);
      const silentAt = card.find((c) => c.what === 'silence' && c.at >= speechAt)?.at;
      if (silentAt !== undefined) toSilent.push(silentAt - speechAt);
    }
    // Each capture interval off by over 5 ms, and whether a GC pause of the media process (>= 3 ms,
    // loop-probe.ts) fell inside it: the split between our garbage and everything else.
    const loop = (stats as { loop?: { longGc: Array<[number, number, string]> } } | null)?.loop;
    const lateCaptures = captured.slice(1).flatMap((t, i) => (Math.abs(t - captured[i]! - 20) > 5 ? [[captured[i]!, t] as const] : []));
    const lateWithGc = lateCaptures.filter(([from, to]) => loop?.longGc.some(([at, ms]) => at + ms >= from && at <= to)).length;
    return {
      mainBlockedMsPerSecond: blockMain ? BLOCK_MS : 0,
      output: OUTPUT.kind,
      callMs,
      frames: sent.length,
      captureToSendMs: summary(sent.map((s, i) => s - captured[i]!), 95),
      sendIntervalJitterMs: summary(intervalJitter(sent, 20), 99),
      // The same on the device's deliveries: a send late with its capture is the media process's loop (or the machine), not the socket.
      captureIntervalJitterMs: summary(intervalJitter(captured, 20), 99),
      sendIntervalsOffByOver5Ms: intervalJitter(sent, 20).filter((j) => j > 5).length,
      // Sends over 3 ms after their capture (a late send that its capture was not): when, how
      // late, and the nearest mark of the call (where in a turn it fell).
      slowSends: sent.flatMap((t, i) => (t - captured[i]! > 3 ? [[t, round(t - captured[i]!)] as const] : [])).slice(0, 30).map(([t, late]) => {
        const near = marks.reduce<{ mark: string; at: number } | null>((a, m) => (a === null || Math.abs(m.at - t) < Math.abs(a.at - t) ? m : a), null);
        return { atMs: Math.round(t - (captured[0] ?? t)), lateMs: late, nearestMark: near ? `${near.mark} ${Math.round(t - near.at)} ms` : null };
      }),
      captureIntervalsOffByOver5Ms: lateCaptures.length,
      captureIntervalsOffWithMediaGcPause: loop ? lateWithGc : null,
      benchProcessCpuPercent: benchCpuPercent,
      bargeIns: toFlush.length,
      bargeInFlushMs: { toCardSilent: summary(toSilent, 95), toFlushCalled: summary(toFlush, 95) },
      marks: Object.fromEntries(['speech_started', 'first_audio', 'first_played', 'barge_in', 'truncated'].map((m) => [m, marks.filter((x) => x.mark === m).length])),
      sessionStats: stats,
      cardScheduling: readFileSync(`${sinkLog}.sched`, 'utf8'),
      loadAverage: { atStart: load, atEnd: loadAverage() },
      profileArgs: profileDir ? { dir: profileDir, captured, monoMinusEpoch } : null,
    };
  } finally {
    stop();
    await env.close();
    sink.kill();
    rmSync(fifo, { force: true });
  }
}

/** The late capture ticks of a phase against its media process's CPU profile (written when the process exited). */
async function profileReport(dir: string, captured: number[], monoMinusEpoch: number) {
  let file: string | undefined;
  for (let i = 0; i < 50 && !file; i++) {
    file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) await new Promise((r) => setTimeout(r, 100));
  }
  if (!file) return { problem: `no .cpuprofile in ${dir}` };
  const profile = loadProfile(join(dir, file));
  // Capture times are the media clock (epoch ms); the profile's are CLOCK_MONOTONIC µs.
  const toUs = (epochMs: number) => (epochMs + monoMinusEpoch) * 1000;
  const late = captured.slice(1).flatMap((t, i) => (t - captured[i]! > 25 ? [{ atMs: Math.round(t - captured[0]!), intervalMs: round(t - captured[i]!), ...windowReport(profile, toUs(t - 25), toUs(t)) }] : []));
  return { file: join(dir, file), lateTicks: late.length, late: late.slice(0, 40), top: totals(profile) };
}

/** The phase with its profile's report in place of the profiling arguments (once the media process has exited and written it). */
async function withProfile<T extends { profileArgs: { dir: string; captured: number[]; monoMinusEpoch: number } | null }>(result: T) {
  const { profileArgs, ...rest } = result;
  if (!profileArgs) return rest;
  return { ...rest, profile: await profileReport(profileArgs.dir, profileArgs.captured, profileArgs.monoMinusEpoch) };
}

export async function run(): Promise<Record<string, unknown>> {
  const home = mkdtempSync(join(tmpdir(), 'bench-rtcall-'));
  try {
    const callMs = writeCallAudio(home);
    const idle = await withProfile(await phase(home, 'rt-idle', callMs, false));
    const blocked = await withProfile(await phase(home, 'rt-blocked', callMs, true));
    // The same at normal priority: what a user without the privilege to raise it gets.
    const normalPriority = process.env.REALTIME_CALL_NORMAL_PRIORITY === '0' ? null : { idle: await withProfile(await phase(home, 'rt-normal-idle', callMs, false, 'normal')), blocked: await withProfile(await phase(home, 'rt-normal-blocked', callMs, true, 'normal')) };
    return {
      targets: { captureToSendP95Ms: 30, sendIntervalJitterP99Ms: 5, bargeInFlushMs: 50 },
      method: `native microphone (ALSA file device, paced by ${AUDIO_INPUT_ENV}) at 24 kHz PCM16, ${ROUNDS} question/interruption rounds per phase; native output on a paced FIFO card (fifo-sink.py); the embedded sandbox's server VAD and eSpeak answers. The media process raises its priority when the OS lets it (main/media/priority.ts: nice -11 and SCHED_RR 5, which need CAP_SYS_NICE/RLIMIT_RTPRIO; each phase's sessionStats.loop.priority says what it got): idle and blocked ran so; normalPriority repeats both with ${MEDIA_PRIORITY_ENV}=normal (an unprivileged user). sessionStats.loop: the media process's event-loop delay, GC pauses and CPU (main/media/loop-probe.ts)`,
      idle,
      blocked,
      normalPriority,
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
