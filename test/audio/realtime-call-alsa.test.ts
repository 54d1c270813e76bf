/**
 * A realtime call on native audio end to end: speech (the espeak-ng CLI, sox to the ALSA file
 * device's raw format) in the capture infile -> naudiodon in the media process (paced and bounded
 * by the WORKBENCH_TEST_AUDIO_INPUT hook) -> 20 ms `input_audio_buffer.append` frames -> the
 * embedded sandbox's server VAD -> its spoken answer -> native playback in the media process -> the
 * ALSA output file. The call is main's live session; a window attached folds its events. Counts
 * and values only, never times (the file device is not paced).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SessionRecord, SessionTimelinePage, TimelineItem } from '../../shared/contract/history';
import { AUDIO_INPUT_ENV } from '../../main/media/test-audio-hook';
import { startLiveApp } from '../integration/live/harness';
import { attachCall } from '../integration/live/realtime-harness';
import { readPcm16Wav } from '../unit/main/services/recording/wav-check';
import type { GalleryItem } from '../../shared/contract/gallery';

const ROOT = resolve(__dirname, '../..');
const CTX = { sessionId: 'test', signal: new AbortController().signal };
let home: string;
let speechMs: number;
let env: Awaited<ReturnType<typeof startLiveApp>> | null = null;

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'alsa-rt-'));
  const template = readFileSync(join(ROOT, 'test/audio/asoundrc.template'), 'utf8');
  writeFileSync(join(home, '.asoundrc'), template.replaceAll('PLAYBACK_RAW_FILE', join(home, 'played.raw')).replaceAll('CAPTURE_RAW_FILE', join(home, 'capture.raw')));
  const wav = join(home, 'speech.wav');
  execFileSync('espeak-ng', ['-v', 'en-us', '-w', wav, 'Hello there. Could you tell me something about the weather today?']);
  // 48 kHz stereo S16_LE as the device reads it; two seconds of silence after, for the VAD's end of turn.
  execFileSync('sox', [wav, '-r', '48000', '-c', '2', '-b', '16', '-e', 'signed-integer', '-t', 'raw', join(home, 'capture.raw'), 'pad', '0', '2']);
  speechMs = Math.floor((statSync(join(home, 'capture.raw')).size / (48_000 * 2 * 2)) * 1000);
  return () => rmSync(home, { recursive: true, force: true });
}, 60_000);
afterEach(async () => {
  await env?.close();
  env = null;
});

/** Samples of the played file (48 kHz stereo PCM16) that are not silence. */
function soundSamples(): number {
  const raw = readFileSync(join(home, 'played.raw'));
  const pcm = new Int16Array(raw.buffer, raw.byteOffset, Math.floor(raw.byteLength / 2));
  let n = 0;
  for (const s of pcm) if (s !== 0) n++;
  return n;
}

describe('realtime call on native audio (ALSA file device)', () => {
  it('a microphone that vanishes mid-call (the device goes quiet, as unplugged): said in the snapshot and marked in History; the call and its recording go on', async () => {
    env = await startLiveApp({ mediaEnv: { ...process.env, HOME: home, [AUDIO_INPUT_ENV]: `${speechMs}:quiet` } });
    const id = await env.app.live.start('realtime', { microphone: { kind: 'native' }, output: { kind: 'none' } }, { origin: 'window' });
    const win = await attachCall(env.app, id);
    await win.until(() => win.state().status === 'live', 'connected');
    await win.until(() => win.state().lastError?.code === 'microphone', 'the microphone said to have stopped', 90_000);
    const state = win.state();
    expect(state.lastError!.message).toMatch(/microphone .*stopped sending audio.*The call goes on without the microphone\.$/);
    expect(state.status).toBe('live');
    // The call goes on: the turn spoken before the microphone went is answered to its end.
    await win.until(() => win.state().usage.responses >= 1 && win.state().transcript.some((e) => e.role === 'assistant' && !e.interim && e.text.length > 0), 'an answer after the microphone stopped', 90_000);
    expect(win.state().status).toBe('live');
    await env.app.live.stop(id);
    const session = (await env.app.handlers.history.session({ id: state.runId }, CTX)) as SessionRecord;
    expect(session.state).toBe('ended');
    expect(session.marks.filter((m) => m.type === 'error').map((m) => String((m.data as { message?: string }).message))).toEqual([expect.stringMatching(/stopped sending audio/)]);
    const mic = session.tracks.find((t) => t.name === 'microphone')!;
    expect(mic.state).toBe('closed');
    expect(mic.durationMs!).toBeGreaterThan(speechMs / 2); // what it captured before it went quiet is kept
  }, 150_000);

  it('speech from the infile -> server VAD -> the spoken answer lands in the output file; turn latency marks recorded', async () => {
    writeFileSync(join(home, 'played.raw'), new Uint8Array(0));
    env = await startLiveApp({ mediaEnv: { ...process.env, HOME: home, [AUDIO_INPUT_ENV]: `${speechMs}:silence` } });
    const id = await env.app.live.start('realtime', { microphone: { kind: 'native' }, output: { kind: 'native' }, inputTranscription: { model: 'svc-transcribe' } }, { origin: 'window' });
    const win = await attachCall(env.app, id);
    await win.until(() => win.state().status === 'live', 'connected');
    // One turn: the user's speech, then the model's answer spoken to its end.
    await win.until(() => win.state().turns.some((t) => t.marks.response_done !== null && t.marks.first_played !== null), 'an answered turn played', 90_000);
    await env.app.live.stop(id);
    await win.until(() => win.ended(), 'the end');

    const state = win.state();
    expect(win.gaps()).toBe(0);
    const turn = state.turns.find((t) => t.marks.response_done !== null)!;
    expect(turn.marks.speech_started).not.toBeNull();
    expect(turn.marks.speech_stopped).not.toBeNull();
    // Order on the session clock: speech stopped -> first audio received -> first sample played.
    expect(turn.marks.first_audio!).toBeGreaterThanOrEqual(turn.marks.speech_stopped!);
    expect(turn.marks.first_played!).toBeGreaterThanOrEqual(turn.marks.first_audio!);
    expect(turn.latency.firstAudioMs).not.toBeNull();
    expect(state.latency.firstPlayed.count).toBeGreaterThanOrEqual(1);
    const answer = state.transcript.find((e) => e.role === 'assistant' && e.text.trim());
    expect(answer?.text.length).toBeGreaterThan(10);

    // History: the microphone and the model as tracks, their marks, the per-call figures.
    const session = (await env.app.handlers.history.session({ id: state.runId }, CTX)) as SessionRecord;
    const model = session.tracks.find((t) => t.direction === 'in');
    const mic = session.tracks.find((t) => t.direction === 'out');
    expect(mic?.durationMs ?? 0).toBeGreaterThan(speechMs / 2);
    expect(model?.durationMs ?? 0).toBeGreaterThan(500);
    for (const type of ['speech_started', 'speech_stopped', 'first_audio', 'first_played', 'response_done'] as const) expect(session.marks.some((m) => m.type === type)).toBe(true);
    expect(session.metrics.firstAudio.count).toBeGreaterThanOrEqual(1);
    // The call as one stereo WAV, linked to the run: the microphone left, the model right.
    const kept = (await env.app.handlers.gallery.ofRun({ runId: state.runId }, CTX)) as GalleryItem[];
    expect(kept).toHaveLength(1);
    const wav = readPcm16Wav(readFileSync(env.app.media.blobs.pathOf(kept[0].hash)));
    expect(wav.channels).toBe(2);
    let left = 0;
    let right = 0;
    for (let i = 0; i + 1 < wav.samples.length; i += 2) {
      if (wav.samples[i] !== 0) left++;
      if (wav.samples[i + 1] !== 0) right++;
    }
    expect(left).toBeGreaterThan(wav.sampleRate / 2); // the question
    expect(right).toBeGreaterThan(wav.sampleRate / 2); // the answer

    // The answer was heard: the output file holds at least most of the model's audio (48 kHz stereo).
    const heardMs = soundSamples() / 2 / 48;
    expect(heardMs).toBeGreaterThan((model!.durationMs ?? 0) * 0.5);
    console.log(`[realtime alsa] heard ${Math.round(heardMs)} ms of ${model!.durationMs} ms model audio; turn latency ${JSON.stringify(turn.latency)}`);
  }, 150_000);

  it('barge-in on native playback: speech over the answer flushes the device and truncates the answer at the ms the flush says were heard', async () => {
    // The question, 4 s of silence (the answer starts playing), then speech over the answer.
    const interrupt = join(home, 'interrupt.wav');
    execFileSync('espeak-ng', ['-v', 'en-us', '-w', interrupt, 'Stop, stop. Wait a moment please.']);
    const bargeRaw = join(home, 'barge.raw');
    // One phrase with no pause inside (a pause would end the turn early and the next words barge in on its first answer).
    const question = join(home, 'question.wav');
    execFileSync('espeak-ng', ['-v', 'en-us', '-w', question, 'Could you tell me something about the weather today']);
    execFileSync('sox', [question, '-r', '48000', '-c', '2', '-b', '16', '-e', 'signed-integer', '-t', 'raw', join(home, 'q.raw'), 'pad', '0', '4']);
    execFileSync('sox', [interrupt, '-r', '48000', '-c', '2', '-b', '16', '-e', 'signed-integer', '-t', 'raw', join(home, 'i.raw'), 'pad', '0', '2']);
    writeFileSync(bargeRaw, Buffer.concat([readFileSync(join(home, 'q.raw')), readFileSync(join(home, 'i.raw'))]));
    const saved = readFileSync(join(home, 'capture.raw'));
    writeFileSync(join(home, 'capture.raw'), readFileSync(bargeRaw));
    // A paced output card (the file device alone plays everything at once, so nothing would be
    // audible to flush): ALSA's file plugin into a FIFO that fifo-sink.py reads in real time.
    const fifo = join(home, 'fifo.raw');
    const rc = readFileSync(join(home, '.asoundrc'), 'utf8');
    execFileSync('mkfifo', [fifo]);
    const sink = spawn('python3', [join(ROOT, 'test/audio/fifo-sink.py'), fifo, join(home, 'sink.log')], { stdio: 'ignore' });
    writeFileSync(join(home, '.asoundrc'), `${rc}pcm.fifoplay {\n  type plug\n  slave {\n    pcm { type file slave.pcm "null" file "${fifo}" format "raw" }\n    format S16_LE\n    rate 48000\n    channels 2\n  }\n}\n`);
    const ms = Math.floor((statSync(bargeRaw).size / (48_000 * 2 * 2)) * 1000);
    try {
      writeFileSync(join(home, 'played.raw'), new Uint8Array(0));
      env = await startLiveApp({ mediaEnv: { ...process.env, HOME: home, [AUDIO_INPUT_ENV]: `${ms}:silence` } });
      // The media process's own marks (its clock: time origin + performance.now(), as this process's).
      const mediaMarks: Array<{ mark: string; at: number }> = [];
      env.plane.onEvent((e) => {
        if (e.type === 'session-event' && e.event === 'mark') mediaMarks.push(e.data as { mark: string; at: number });
      });
      const id = await env.app.live.start('realtime', { microphone: { kind: 'native' }, output: { kind: 'native', device: 'ALSA:fifoplay' } }, { origin: 'window' });
      const win = await attachCall(env.app, id);
      await win.until(() => win.state().turns.some((t) => t.bargedIn && t.truncatedAtMs !== null), 'a barge-in with its truncate', 90_000);
      await win.until(() => win.state().transcript.some((e) => e.status === 'truncated'), 'the truncated answer');
      // Our messages reach the log as captured, possibly a frame (at most HELD_FRAME_MAX_MS) late.
      await win.until(() => win.events().some((e) => e.type === 'wire' && e.direction === 'out' && e.eventType === 'conversation.item.truncate'), 'the truncate in the log');
      await env.app.live.stop(id);
      const state = win.state();
      const cut = state.turns.find((t) => t.bargedIn)!;
      const truncate = win.events().find((e) => e.type === 'wire' && e.direction === 'out' && e.eventType === 'conversation.item.truncate');
      const sent = (truncate && truncate.type === 'wire' ? truncate.data : null) as { item_id: string; audio_end_ms: number } | null;
      // What the flush said was heard is what the truncate carries, for the item that was playing.
      expect(sent?.item_id).toBe(cut.assistantItemId);
      expect(sent?.audio_end_ms).toBe(cut.truncatedAtMs);
      // Cut mid-answer: the interruption came seconds after the question, while the answer played.
      expect(cut.truncatedAtMs!).toBeGreaterThan(200);
      expect(state.turns.filter((t) => t.bargedIn)).toHaveLength(1);
      expect(cut.marks.barge_in!).toBeGreaterThanOrEqual(cut.marks.first_played!);
      expect(state.transcript.find((e) => e.itemId === cut.assistantItemId)).toMatchObject({ status: 'truncated', truncatedAtMs: cut.truncatedAtMs });
      // Figures (not asserted: the machine is shared): speech_started received -> flush called in the
      // media process, and -> the card's first silent read (fifo-sink.py's log, CLOCK_MONOTONIC ns;
      // clocks of two processes agree within a few ms).
      const started = mediaMarks.filter((m) => m.mark === 'speech_started');
      const barge = mediaMarks.find((m) => m.mark === 'barge_in')!;
      const speechAt = started.filter((m) => m.at <= barge.at).at(-1)!.at;
      const monoMinusEpoch = Number(process.hrtime.bigint()) / 1e6 - (performance.timeOrigin + performance.now());
      const sink = readFileSync(join(home, 'sink.log'), 'utf8').trim().split('\n').map((l) => l.split(' ')).map(([t, what]) => [Number(BigInt(t)) / 1e6 - monoMinusEpoch, what] as const);
      const silentAt = sink.find(([t, what]) => what === 'silence' && t >= speechAt)?.[0];
      console.log(`[realtime alsa] barge-in: truncated at ${cut.truncatedAtMs} ms heard; speech_started -> flush ${(barge.at - speechAt).toFixed(1)} ms, -> card silent ${silentAt === undefined ? 'n/a' : (silentAt - speechAt).toFixed(1)} ms`);

      // The model track holds what was heard: of the cut answer, exactly the ms the flush said were played.
      const session = (await env.app.handlers.history.session({ id: state.runId }, CTX)) as SessionRecord;
      const items: TimelineItem[] = [];
      for (let offset = 0; offset < session.timelineTotal; offset += 500) items.push(...((await env.app.handlers.history.timeline({ id: state.runId, offset, limit: 500 }, CTX)) as SessionTimelinePage).items);
      const heardBytes = items.reduce((n, i) => n + ('event' in i && i.event.audio && i.event.direction === 'in' && JSON.parse(i.event.data || '{}').item_id === cut.assistantItemId ? i.event.audio.bytes : 0), 0);
      expect(heardBytes).toBe(cut.truncatedAtMs! * 24 * 2); // 24 kHz PCM16
    } finally {
      writeFileSync(join(home, 'capture.raw'), saved);
      writeFileSync(join(home, '.asoundrc'), rc);
      sink.kill();
      rmSync(fifo, { force: true });
    }
  }, 150_000);
});
