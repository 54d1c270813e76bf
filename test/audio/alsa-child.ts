/**
 * Runs the native audio layer against the ALSA `file` plugin, in a process of its own because
 * PortAudio reads ~/.asoundrc when it starts: the test sets HOME to a folder holding one.
 *
 *   alsa-child.ts devices <out.json>
 *   alsa-child.ts playback <speech.wav> <out.json>      plays the WAV through Playback
 *   alsa-child.ts flush <out.json>                      plays item A, flushes it mid-way (barge-in), then plays item B
 *   alsa-child.ts capture <frames> <out.raw> <out.json> captures <frames> 20 ms frames at 16 kHz
 *   alsa-child.ts hotplug <out.json>                    adds then removes a PCM in ~/.asoundrc under a DeviceWatcher
 *   alsa-child.ts errors <out.json>                     opens what cannot be opened
 *
 * Prints nothing of its own on stdout (naudiodon prints PortAudio's banner there); results go to files.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseWav } from '../../shared/audio/wav';
import { Capture, type CaptureFrame } from '../../main/audio/capture';
import { DeviceWatcher, type DeviceChange } from '../../main/audio/devices';
import { createNaudiodonBackend } from '../../main/audio/naudiodon-backend';
import { INTERRUPTIBLE_OUTPUT, Playback } from '../../main/audio/playback';
import { flushItem } from './flush-items';

/**
 * Waits until the stretch is played out: the jitter buffer idle, then the device's own queue played
 * (`playedMs` counts only what left it, and `idle` comes once the last period is written, not
 * played: read at once, a loaded machine's run saw the last 23 frames still queued). Settled when
 * `playedMs` has not moved for 100 ms, or after 5 s.
 */
async function playedOut(playback: Playback, errors: unknown[]): Promise<void> {
  while (playback.stats.state !== 'idle' && errors.length === 0) await new Promise((r) => setTimeout(r, 5));
  const deadline = Date.now() + 5000;
  let last = -1;
  let since = Date.now();
  while (Date.now() < deadline && errors.length === 0) {
    const now = playback.stats.playedMs;
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= 100) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function main(): Promise<void> {
  const [mode, ...args] = process.argv.slice(2);
  const backend = await createNaudiodonBackend();
  if (!backend.ok) throw new Error(backend.error.message);
  if (mode === 'devices') {
    writeFileSync(args[0], JSON.stringify(backend.value.listDevices()));
  } else if (mode === 'playback') {
    const wav = parseWav(readFileSync(args[0]));
    if (!wav.ok) throw new Error(wav.error.message);
    const errors: unknown[] = [];
    const opened = Playback.open({ backend: backend.value, sourceRate: wav.value.sampleRate, onError: (e) => errors.push(e) });
    if (!opened.ok) throw new Error(opened.error.message);
    const playback = opened.value;
    // Delivered as a stream of 20 ms deltas, as the service's audio arrives.
    const delta = (wav.value.sampleRate / 50) * wav.value.channels;
    for (let at = 0; at < wav.value.samples.length; at += delta) playback.enqueue(wav.value.samples.subarray(at, at + delta));
    playback.end();
    await playedOut(playback, errors);
    const stats = playback.stats;
    await playback.dispose();
    writeFileSync(args[1], JSON.stringify({ stats, errors }));
  } else if (mode === 'flush') {
    // A barge-in as the realtime console does it: item A playing, flush() (it answers the ms heard),
    // then the next item B, played in full. Settings as the speech output and the console use them.
    const errors: unknown[] = [];
    const opened = Playback.open({ backend: backend.value, sourceRate: 48000, targetDepthMs: 20, ...INTERRUPTIBLE_OUTPUT, onError: (e) => errors.push(e) });
    if (!opened.ok) throw new Error(opened.error.message);
    const playback = opened.value;
    const aFrames = 48000 * 5;
    playback.markItem();
    playback.enqueue(flushItem(aFrames, 1));
    // The file device is not paced: it takes writes as fast as they come. Flush once 100 ms of A is written.
    const written = () => playback.stats.framesWritten - (playback.stats.framesBeforeFirstAudio ?? Infinity);
    while (written() < 4800 && errors.length === 0) await new Promise((r) => setImmediate(r));
    const heardMs = playback.flush();
    const afterFlush = playback.stats;
    const bFrames = 48000 * 0.3;
    playback.markItem();
    playback.enqueue(flushItem(bFrames, -1));
    playback.end();
    await playedOut(playback, errors);
    const stats = playback.stats;
    await playback.dispose();
    writeFileSync(args[0], JSON.stringify({ heardMs, afterFlush, stats, aFrames, bFrames, periodMs: INTERRUPTIBLE_OUTPUT.periodMs, errors }));
  } else if (mode === 'capture') {
    const want = Number(args[0]);
    const frames: CaptureFrame[] = [];
    const errors: unknown[] = [];
    let done: () => void = () => {};
    const finished = new Promise<void>((resolve) => (done = resolve));
    const started = Capture.start({
      backend: backend.value,
      sampleRate: 16000,
      deviceRate: 48000,
      deviceChannels: 2, // the file holds 48 kHz stereo: read it as it is, mix down ourselves
      onFrame: (f) => {
        // The file device is not paced and returns garbage past the end of its file: take only what the file holds.
        if (frames.length < want) frames.push(f);
        if (frames.length === want) done();
      },
      onError: (e) => {
        errors.push(e);
        done();
      },
    });
    if (!started.ok) throw new Error(started.error.message);
    await finished;
    const stats = started.value.stats;
    await started.value.dispose();
    const raw = new Int16Array(frames.length * 320);
    frames.forEach((f, i) => raw.set(f.pcm, i * 320));
    writeFileSync(args[1], raw);
    writeFileSync(args[2], JSON.stringify({ seqs: frames.map((f) => f.seq), starts: frames.map((f) => f.startMs), lengths: frames.map((f) => f.pcm.length), stats, errors }));
  } else if (mode === 'hotplug') {
    // A PCM defined in ~/.asoundrc is a device to PortAudio: adding and removing one is a plug and an unplug.
    const rc = join(homedir(), '.asoundrc');
    const original = readFileSync(rc, 'utf8');
    const watcher = new DeviceWatcher(backend.value, 100);
    const changes: DeviceChange[] = [];
    watcher.onChange((c) => changes.push(c));
    const waitFor = async (n: number) => {
      for (let i = 0; i < 300 && changes.length < n; i++) await new Promise((r) => setTimeout(r, 20));
    };
    writeFileSync(rc, `${original}\npcm.headset {\n  type plug\n  slave.pcm "null"\n}\n`);
    await waitFor(1);
    writeFileSync(rc, original);
    await waitFor(2);
    watcher.dispose();
    writeFileSync(args[0], JSON.stringify(changes.map((c) => ({ added: c.added.map((d) => d.id), removed: c.removed.map((d) => d.id) }))));
  } else if (mode === 'errors') {
    const missing = backend.value.openInput({ deviceId: 'ALSA:no-such-mic' });
    const badRate = backend.value.openOutput({ sampleRate: 1 });
    writeFileSync(args[0], JSON.stringify({ missing, badRate }));
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
