/**
 * A kill -9 of the whole app mid-call leaves a recording History plays. Browser mode as `npm start`
 * runs it (main, and its media process where the call's socket runs) is started in its own process
 * group against a sandbox in this process (so the service outlives the app, as a real one would).
 * Over main's WebSocket API, as a page would: a realtime call with the page's microphone (eSpeak
 * NG speech sent in real time over the media channel), one answered turn, a second answer still
 * speaking, then SIGKILL to the group (main and the media process at once), or to main alone
 * (then the media process, orphaned, must end by itself: its socket would keep the call going at
 * the service). Browser mode started
 * again on the same data folder: the call is in History, interrupted (incomplete, "ended
 * abnormally", its session `crashed`), with its transcript and event log up to the kill, and its
 * stereo recording (microphone left, model right) about as long as the call, both channels
 * carrying sound, served as a valid WAV by the History entry's media URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startSandbox, type SandboxServer } from '../../../main/sandbox/index';
import { createWorkbenchApi } from '../../../shared/contract/bridge';
import type { WorkbenchApi } from '../../../shared/contract/api';
import type { LiveAttachChunk } from '../../../shared/contract/live';
import type { SessionRecord } from '../../../shared/contract/history';
import type { RunRecord } from '../../../shared/contract/runs';
import { FrameKind } from '../../../shared/media-frames/frame';
import { applyRealtimeCallEvent, type RealtimeCallEvent, type RealtimeCallSnapshot } from '../../../shared/realtime-call';
import { createWsTransport, type SocketLike } from '../../../renderer/src/bridge/ws-transport';
import { createMediaChannel, webSocketFramePort } from '../../../renderer/src/bridge/media-channel';
import { readPcm16Wav } from '../../unit/main/services/recording/wav-check';
import { speechPcm } from './harness';

const ROOT = join(import.meta.dirname, '../../..');
const KEY = 'sk-app-kill-1';

interface BrowserApp {
  child: ChildProcess;
  port: number;
  origin: string;
  api: WorkbenchApi;
  transport: ReturnType<typeof createWsTransport>;
  stderr: () => string;
}

/** `node main/browser/index.ts` in its own process group (so the whole app can be killed at once). */
async function startBrowserApp(dataDir: string): Promise<BrowserApp> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'main/browser/index.ts', '--port', '0', '--data-dir', dataDir], {
    cwd: ROOT,
    env: { ...process.env, WORKBENCH_DATA_DIR: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const firstLine = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]);
    });
    child.on('exit', (code, signal) => reject(new Error(`browser mode exited ${code ?? signal}:\n${stderr}`)));
  });
  const [, port, token] = /^Workbench: http:\/\/127\.0\.0\.1:(\d+)\/#token=(\S+)$/.exec(firstLine)!;
  const origin = `http://127.0.0.1:${port}`;
  const transport = createWsTransport({ url: `ws://127.0.0.1:${port}/ws`, token, connect: (url, protocols) => new WebSocket(url, protocols, { origin }) as unknown as SocketLike });
  return { child, port: Number(port), origin, api: createWorkbenchApi(transport), transport, stderr: () => stderr };
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

function exited(child: ChildProcess): Promise<NodeJS.Signals | number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.signalCode ?? child.exitCode);
  return new Promise((r) => child.once('exit', (code, signal) => r(signal ?? code)));
}

/** RMS (dBFS) of one channel of interleaved stereo PCM16 over [from, to) frames. */
function channelDbfs(samples: Int16Array, channel: 0 | 1, from: number, to: number): number {
  let sum = 0;
  let n = 0;
  for (let i = from; i < to; i++) {
    const v = samples[i * 2 + channel] / 32768;
    sum += v * v;
    n++;
  }
  return n === 0 ? -Infinity : 10 * Math.log10(sum / n || 1e-12);
}

let sb: SandboxServer;
let dataDir: string;
const apps: BrowserApp[] = [];

beforeAll(async () => {
  // The service sends answer audio up to a second ahead of real time (the sandbox's default lead):
  // the model's track must still end at the kill (recorded as the far side hears it, in real time).
  sb = await startSandbox({ keys: [KEY] });
});
afterAll(async () => {
  await sb?.close();
});
afterEach(async () => {
  for (const app of apps.splice(0)) {
    app.transport.dispose();
    if (app.child.exitCode === null && app.child.signalCode === null) {
      try {
        process.kill(-app.child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await exited(app.child);
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('a kill -9 of the whole app mid-call', () => {
  // `group`: main and its media process killed at once. `main`: main alone (kill -9 <pid>): the
  // media process, where the call's socket runs, must not outlive it (the call would go on at the service).
  it.each(['group', 'main'] as const)('(%s) leaves the call in History, interrupted, with its transcript, events and a stereo recording History plays', async (target) => {
    dataDir = mkdtempSync(join(tmpdir(), 'wb-rt-kill-'));
    const first = await startBrowserApp(dataDir);
    apps.push(first);
    const { api } = first;
    const profile = await api.connections.save({ name: 'Sandbox in another process', baseUrl: sb.url, apiKey: KEY });

    // The call's length: at most from before the start (the recording's clock starts as it opens), at least from when it was live.
    const startedAt = performance.now();
    const { id } = await api.live.start({ kind: 'realtime', input: { connectionId: profile.id, turnDetection: null, microphone: { kind: 'page' }, output: { kind: 'none' } } });
    let state: RealtimeCallSnapshot | null = null;
    const waiters: Array<() => void> = [];
    const handle = api.live.attach({ id }, (chunk: LiveAttachChunk) => {
      if (chunk.type === 'snapshot') state = structuredClone(chunk.snapshot as RealtimeCallSnapshot);
      else if (chunk.type === 'event' && state) applyRealtimeCallEvent(state, chunk.event as RealtimeCallEvent);
      for (const w of waiters.splice(0)) w();
    });
    handle.result.catch(() => undefined); // the kill ends it
    const until = (check: (s: RealtimeCallSnapshot) => boolean, what: string): Promise<RealtimeCallSnapshot> =>
      new Promise((done, fail) => {
        const timer = setTimeout(() => fail(new Error(`timed out waiting for ${what}: ${JSON.stringify({ status: state?.status, lastError: state?.lastError, transcript: state?.transcript })}\n${first.stderr().slice(-3000)}`)), 90_000);
        const look = () => (state && check(state) ? (clearTimeout(timer), done(state)) : waiters.push(look));
        look();
      });
    const live = await until((s) => s.status === 'live' && s.streams.mic >= 0, 'connected');
    const runId = live.runId;
    const liveAt = performance.now();

    // The page's microphone: speech at 24 kHz, 20 ms frames in real time (caught up by the clock, not by timers).
    const info = await api.media.channel();
    if (info.transport !== 'websocket') throw new Error('browser mode hands out a WebSocket media channel');
    const channel = createMediaChannel({ connect: webSocketFramePort(async () => info, (u, p) => new WebSocket(u, p, { origin: first.origin }) as unknown as SocketLike) });
    const speech = await speechPcm(['This is the caller speaking into the microphone before the crash.'], 24_000, 300);
    const frameBytes = 960;
    let sentFrames = 0;
    const micStartedAt = performance.now();
    const pump = setInterval(() => {
      const due = Math.floor((performance.now() - micStartedAt) / 20);
      for (; sentFrames < due; sentFrames++) {
        const at = (sentFrames * frameBytes) % (speech.byteLength - frameBytes - (speech.byteLength % 2));
        channel.send(live.streams.mic, FrameKind.Audio, new Uint8Array(speech.subarray(at, at + frameBytes)));
      }
    }, 10);

    try {
      await handle.send({ type: 'text', text: 'Say This answer is recorded before the crash.' });
      await until((s) => s.usage.responses === 1, 'the first answer');
      await handle.send({ type: 'text', text: 'Say This one is cut by the crash, it goes on for a while so that it is still speaking when the app is killed.' });
      await until((s) => s.turns.length === 2 && s.turns[1].marks.first_audio !== null, 'the second answer speaking');
      // A second of the answer heard (and the recorder's 250 ms flushes behind it) before the kill.
      await new Promise((r) => setTimeout(r, 1200));
    } finally {
      clearInterval(pump);
    }
    const killedAt = performance.now();
    const mediaPid = Number(/the media process \(pid (\d+)\) is up/.exec(first.stderr())?.[1] ?? 0);
    expect(mediaPid).toBeGreaterThan(0);
    expect(state!.usage.responses).toBe(1); // the second answer was still going

    process.kill(target === 'group' ? -first.child.pid! : first.child.pid!, 'SIGKILL');
    expect(await exited(first.child)).toBe('SIGKILL');
    await expect.poll(() => alive(mediaPid), { timeout: 10_000 }).toBe(false);
    channel.close();
    first.transport.dispose();

    // The app again, on the same data folder.
    const second = await startBrowserApp(dataDir);
    apps.push(second);
    expect(await second.api.live.list()).toEqual([]); // nothing of the call is left running
    const run = (await second.api.history.get({ id: runId })) as RunRecord;
    expect(run.status).toBe('incomplete');
    expect(run.error?.message).toMatch(/ended abnormally/);
    const session = (await second.api.history.session({ id: runId })) as SessionRecord;
    expect(session).toMatchObject({ kind: 'realtime', state: 'crashed' });
    expect(session.tracks.map((t) => [t.name, t.state])).toEqual([
      ['microphone', 'crashed'],
      ['model', 'crashed'],
    ]);

    // Its event log up to the kill: connected, both messages sent, the first answer done, the second begun.
    const events = await second.api.history.events({ id: runId, offset: 0, limit: 5000 });
    const types = events.events.filter((e) => e.kind === 'json').map((e) => `${e.direction} ${(JSON.parse(e.data) as { type?: string }).type}`);
    expect(types).toContain('in session.created');
    expect(types).toContain('out session.update');
    expect(types.filter((t) => t === 'out conversation.item.create')).toHaveLength(2);
    expect(types.filter((t) => t === 'in response.done')).toHaveLength(1);
    expect(types.filter((t) => t === 'in response.created')).toHaveLength(2);

    // The stereo recording, as History serves it: a valid WAV about as long as the call, sound on both channels.
    await expect.poll(async () => (await second.api.gallery.ofRun({ runId })).length, { timeout: 60_000 }).toBe(1);
    const [mix] = await second.api.gallery.ofRun({ runId });
    expect(mix).toMatchObject({ kind: 'audio', origin: 'recorded' });
    const served = await fetch(`${second.origin}${mix.url.url}`);
    expect(served.status).toBe(200);
    const stereo = readPcm16Wav(Buffer.from(await served.arrayBuffer()));
    expect(stereo).toMatchObject({ channels: 2, sampleRate: 24_000 });
    const seconds = stereo.frames / stereo.sampleRate;
    console.log(`call ${((killedAt - liveAt) / 1000).toFixed(2)}-${((killedAt - startedAt) / 1000).toFixed(2)} s, recording ${seconds.toFixed(2)} s`);
    expect(seconds).toBeGreaterThan((killedAt - liveAt) / 1000 - 1);
    expect(seconds).toBeLessThan((killedAt - startedAt) / 1000 + 1);
    const samples = stereo.samples;
    expect(channelDbfs(samples, 0, 0, stereo.frames)).toBeGreaterThan(-40); // the microphone, left
    expect(channelDbfs(samples, 1, 0, stereo.frames)).toBeGreaterThan(-40); // the model, right
    // Each track is served too (History's per-track players).
    for (const track of session.tracks) {
      const res = await fetch(`${second.origin}${track.media!.url}`);
      expect(res.status).toBe(200);
      const wav = readPcm16Wav(Buffer.from(await res.arrayBuffer()));
      expect(wav.channels).toBe(1);
      expect(wav.frames).toBeGreaterThan(0);
    }

    // Its transcript up to the kill: both turns said, the first answer whole.
    const transcript = (run.output as { transcript?: Array<{ role: string; text: string }> } | null)?.transcript ?? [];
    expect(transcript.slice(0, 3).map((e) => [e.role, e.text.trim()])).toEqual([
      ['user', 'Say This answer is recorded before the crash.'],
      ['assistant', 'This answer is recorded before the crash.'],
      ['user', 'Say This one is cut by the crash, it goes on for a while so that it is still speaking when the app is killed.'],
    ]);
    expect(run.outputPreview).toMatch(/^User: Say This answer is recorded before the crash\.\sModel: This answer is recorded before the crash\./);

    // Said recovered, and its cost what the live call had counted before the kill (the one answer
    // done), priced once the restarted app could ask the catalogue.
    expect(run.output).toMatchObject({ recovered: true });
    const liveCost = state!.costTicks;
    expect(liveCost).toBeGreaterThan(0);
    await expect.poll(async () => ((await second.api.history.get({ id: runId })) as RunRecord).costTicks, { timeout: 30_000 }).toBe(liveCost);
  }, 240_000);
});
