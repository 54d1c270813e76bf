/**
 * A native microphone end to end: speech (the espeak-ng CLI, converted with sox to the ALSA file
 * device's raw format, 48 kHz stereo S16_LE) in the capture device's infile -> naudiodon in the
 * media process (main/audio Capture; the WORKBENCH_TEST_AUDIO_INPUT hook paces the file device
 * to real time and bounds it to the file's length, since it is not paced and gives garbage past
 * its end) -> the `transcription` media session -> the embedded sandbox's WebSocket /v1/stt ->
 * main's live session -> a window attached to it. Then the same device failing mid-stream (it
 * goes quiet, as an unplugged card does). Counts and order only, never times.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { transcriptText } from '../../shared/live-transcription';
import type { LiveAttachChunk } from '../../shared/contract/live';
import { measureLevel } from '../../shared/audio/levels';
import type { VoiceRecordingEvent, VoiceRecordingSnapshot } from '../../shared/voice-recording';
import { createMediaChannel, webSocketFramePort } from '../../renderer/src/bridge/media-channel';
import type { SocketLike } from '../../renderer/src/bridge/ws-transport';
import { PAGE_ORIGIN } from '../integration/media/harness';
import { AUDIO_INPUT_ENV } from '../../main/media/test-audio-hook';
import { attachWindow, startLiveApp } from '../integration/live/harness';

const ROOT = resolve(__dirname, '../..');
const QUERY = { sample_rate: 16_000, interim_results: true, endpointing: 300 } as const;
let home: string;
let speechMs: number;
let env: Awaited<ReturnType<typeof startLiveApp>> | null = null;

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'alsa-live-'));
  const template = readFileSync(join(ROOT, 'test/audio/asoundrc.template'), 'utf8');
  writeFileSync(join(home, '.asoundrc'), template.replaceAll('PLAYBACK_RAW_FILE', join(home, 'played.raw')).replaceAll('CAPTURE_RAW_FILE', join(home, 'capture.raw')));
  const wav = join(home, 'speech.wav');
  execFileSync('espeak-ng', ['-v', 'en-us', '-w', wav, 'The quick brown fox jumps over the lazy dog. Live transcription works from the microphone.']);
  // The device's raw format (asoundrc.template's filecap slave): 48 kHz, 2 channels, S16_LE; a second of silence after.
  execFileSync('sox', [wav, '-r', '48000', '-c', '2', '-b', '16', '-e', 'signed-integer', '-t', 'raw', join(home, 'capture.raw'), 'pad', '0', '1']);
  speechMs = Math.floor((statSync(join(home, 'capture.raw')).size / (48_000 * 2 * 2)) * 1000);
  return () => rmSync(home, { recursive: true, force: true });
}, 60_000);
afterEach(async () => {
  await env?.close();
  env = null;
});

async function start(after: 'silence' | 'quiet', query: Record<string, unknown> = QUERY) {
  env = await startLiveApp({ mediaEnv: { ...process.env, HOME: home, [AUDIO_INPUT_ENV]: `${speechMs}:${after}` } });
  const devices = await env.plane.devices();
  if (!devices.ok) throw new Error(JSON.stringify(devices));
  expect(devices.value.defaultInputId).toBe('ALSA:default');
  const id = await env.app.live.start('transcription', { query, source: { kind: 'native' } }, { origin: 'window' });
  return { id, win: await attachWindow(env.app, id) };
}

describe('native microphone -> live transcription (ALSA file device)', () => {
  it('carries speech captured from the infile to the live view as interim then final text', async () => {
    const { id, win } = await start('silence');
    expect(win.state().status).toBe('listening');
    // The speech ends with silence the service's endpointing closes: wait for that final (at most
    // the speech's length and a margin: a cap, not a timing assertion), then stop.
    const cap = new Promise<void>((r) => setTimeout(r, speechMs + 15_000));
    await Promise.race([cap, win.until(() => (win.state().channels[0]?.finals.some((s) => s.utterance) ?? false) || win.ended())]);
    await env!.app.live.stop(id);
    await win.until(() => win.ended());

    const events = win.events();
    const firstInterim = events.findIndex((e) => e.type === 'interim' && e.text.trim() !== '');
    const firstFinal = events.findIndex((e) => e.type === 'final');
    expect(firstInterim).toBeGreaterThanOrEqual(0);
    expect(firstFinal).toBeGreaterThan(firstInterim);
    const state = win.state();
    expect(win.gaps()).toBe(0);
    expect(state.status).toBe('ended');
    expect(state.end?.incomplete).toBe(false);
    const channel0 = state.channels[0];
    expect(channel0.finals.filter((s) => s.utterance).length).toBeGreaterThanOrEqual(1);
    expect(channel0.finals.flatMap((f) => f.words).length).toBeGreaterThan(4);
    expect(transcriptText(channel0).length).toBeGreaterThan(10);
    // The device was the native one, named in the run.
    expect(env!.logs.some((l) => l.includes('TEST HOOK') && l.includes(AUDIO_INPUT_ENV))).toBe(true);
  }, 120_000);

  it('a stereo device gives two-channel live transcription: each side transcribed apart (speech on the left, silence on the right)', async () => {
    // The same speech, now on the left side only (the infile is read when the device opens).
    execFileSync('sox', [join(home, 'speech.wav'), '-r', '48000', '-c', '2', '-b', '16', '-e', 'signed-integer', '-t', 'raw', join(home, 'capture.raw'), 'remix', '1', '0', 'pad', '0', '1']);
    try {
      const { id, win } = await start('silence', { ...QUERY, channels: 2 });
      expect(win.state().status).toBe('listening');
      expect(win.state().audioChannels).toBe(2);
      const cap = new Promise<void>((r) => setTimeout(r, speechMs + 15_000));
      await Promise.race([cap, win.until(() => (win.state().channels.find((c) => c.channel === 0)?.finals.some((s) => s.utterance) ?? false) || win.ended())]);
      await env!.app.live.stop(id);
      await win.until(() => win.ended());
      const state = win.state();
      expect(state.end?.incomplete).toBe(false);
      const left = state.channels.find((c) => c.channel === 0)!;
      const right = state.channels.find((c) => c.channel === 1);
      expect(left.finals.flatMap((f) => f.words).length).toBeGreaterThan(4);
      expect(right?.finals.flatMap((f) => f.words) ?? []).toEqual([]);
      // The recorded microphone track is stereo.
      const session = (await env!.app.handlers.history.session({ id: state.runId }, { sessionId: 'test', signal: new AbortController().signal })) as { tracks: Array<{ direction: string; channels: number }> };
      expect(session.tracks.find((t) => t.direction === 'out')?.channels).toBe(2);
    } finally {
      execFileSync('sox', [join(home, 'speech.wav'), '-r', '48000', '-c', '2', '-b', '16', '-e', 'signed-integer', '-t', 'raw', join(home, 'capture.raw'), 'pad', '0', '1']);
    }
  }, 120_000);

  it('a device that fails mid-stream ends the session with an explained error, the transcript so far kept and marked incomplete', async () => {
    const { win } = await start('quiet');
    // Nothing is stopped by the test: the device goes quiet after the speech, Capture's stall watchdog notices.
    await win.until(() => win.ended() || win.state().status === 'failed');
    await win.until(() => win.ended());
    const state = win.state();
    expect(state.status).toBe('failed');
    expect(state.end?.incomplete).toBe(true);
    expect(state.end?.message).toMatch(/^The microphone "default" stopped sending audio \d+ ms ago\. Check it, or pick another one\. The live transcription stopped there\. The transcript so far is kept\.$/);
    // What was said before the failure is there (drained through the service before the end).
    const channel0 = state.channels[0];
    expect(channel0.finals.length).toBeGreaterThan(0);
    expect(transcriptText(channel0).length).toBeGreaterThan(10);
    const run = await env!.app.handlers.history.get({ id: state.runId! }, { sessionId: 'test', signal: new AbortController().signal });
    expect(JSON.stringify(run)).toContain('stopped sending audio');
  }, 120_000);

  it('records a voice clip from the native microphone: the page reads the speech as 20 ms frames straight from the media process', async () => {
    env = await startLiveApp({ mediaEnv: { ...process.env, HOME: home, [AUDIO_INPUT_ENV]: `${speechMs}:silence` } });
    const id = await env.app.live.start('voice-recording', { maxMs: 3000 }, { origin: 'window' });
    const chunks: LiveAttachChunk[] = [];
    let ended = false;
    await env.app.live.attach(id, { deliver: (c) => void chunks.push(c), ended: () => void (ended = true) });
    const snap = (chunks[0] as { snapshot: VoiceRecordingSnapshot }).snapshot;
    expect(snap).toMatchObject({ status: 'recording', sampleRate: 16_000 });
    const info = await env.plane.channel();
    if (!info.ok || info.value.transport !== 'websocket') throw new Error(JSON.stringify(info));
    const { url, token } = info.value;
    const channel = createMediaChannel({ connect: webSocketFramePort(async () => ({ url, token }), (u, p) => new WebSocket(u, p, { origin: PAGE_ORIGIN }) as unknown as SocketLike) });
    const frames: Int16Array[] = [];
    channel.onFrame(snap.streams.pcm, (frame) => void frames.push(new Int16Array(frame.payload.slice().buffer)));
    // The media process ends it at 3 s of audio taken (it waits for this page to subscribe first).
    await new Promise<void>((done) => {
      const look = () => (ended ? done() : setTimeout(look, 50));
      look();
    });
    channel.close();
    const events = chunks.flatMap((c) => (c.type === 'event' ? [c.event as VoiceRecordingEvent] : []));
    expect(events.at(-1)).toEqual({ type: 'ended', atLimit: true });
    // The device opened (named in the snapshot or just after it).
    expect([snap.device, ...events.flatMap((e) => (e.type === 'device' ? [e.name] : []))]).toContain('default');
    expect(frames).toHaveLength(150);
    expect(frames.every((f) => f.length === 320)).toBe(true);
    // The speech is in it: most of its first three seconds are well above silence.
    const loud = frames.filter((f) => measureLevel(f).rmsDbfs > -40).length;
    expect(loud).toBeGreaterThan(60);
  }, 120_000);
});
