import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SecretScrubber } from '../../../../../main/api/secret-scrubber';
import { getSession, tracksOfRun } from '../../../../../main/store/audio-tracks';
import { getBlobRow, sweepOrphanBlobs } from '../../../../../main/store/blob-rows';
import { listGallery } from '../../../../../main/store/gallery';
import { BlobStore } from '../../../../../main/store/blobs';
import { closeDatabase, openDatabase, type Db } from '../../../../../main/store/db';
import { readRunEvents } from '../../../../../main/store/run-events';
import { deleteRun, getRun } from '../../../../../main/store/runs';
import { marksOfRun } from '../../../../../main/store/session-marks';
import { mixRecoveredCalls, recoverRecordings } from '../../../../../main/services/recording/recover';
import { SessionRecorder, type SessionRecorderDeps } from '../../../../../main/services/recording/session-recorder';
import { newRun } from '../../store/run-fixtures';
import { ramp, readPcm16Wav } from './wav-check';

let dir: string;
let db: Db;
let blobs: BlobStore;
let clockMs: number;

function deps(over: Partial<SessionRecorderDeps> = {}): SessionRecorderDeps {
  return { db, blobs, tracksDir: join(dir, 'tracks'), clock: () => clockMs, now: () => 1_700_000_000_000 + clockMs, ...over };
}

function open(id = 'sess1', over: Partial<SessionRecorderDeps> = {}): SessionRecorder {
  const { status: _status, ...run } = newRun(id, 1_700_000_000_000, 'live transcription');
  return SessionRecorder.open(deps(over), { run, kind: 'transcription' });
}

const blobBytes = (hash: string): Uint8Array => readFileSync(blobs.pathOf(hash));

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wb-rec-'));
  db = openDatabase(join(dir, 'workbench.db'));
  blobs = new BlobStore(join(dir, 'blobs'));
  clockMs = 0;
});

afterEach(() => {
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

describe('SessionRecorder', () => {
  it('records both directions as WAV blobs, audio events as references, marks and events in order, and ends the run', async () => {
    const rec = open();
    await rec.openTrack('in', { sampleRate: 16_000 });
    clockMs = 100;
    await rec.openTrack('out', { sampleRate: 24_000 });
    rec.event({ direction: 'out', kind: 'json', data: '{"type":"session.update"}' });
    const refs = [];
    for (let i = 0; i < 5; i++) {
      clockMs = 100 + i * 20;
      refs.push(rec.audio('in', ramp(320, i * 320), { frame: { data: '{"seq":' + i + '}' } }));
    }
    rec.mark('speech_stopped', { t: 180 });
    rec.event({ direction: 'in', kind: 'text', data: 'hello' });
    rec.audio('out', ramp(2_400, 0));
    rec.mark('first_audio', { t: 260 });
    clockMs = 1_000;
    const end = await rec.close({ outputText: 'hello' });

    expect(refs.map((r) => [r.offsetMs, r.durationMs, r.bytes])).toEqual([0, 20, 40, 60, 80].map((o) => [o, 20, 640]));
    expect(end).toMatchObject({ status: 'completed', durationMs: 1_000 });
    const tracks = tracksOfRun(db, 'sess1');
    expect(tracks.map((t) => [t.direction, t.state, t.frames, t.startMs])).toEqual([
      ['in', 'closed', 1_600, 0],
      ['out', 'closed', 2_400, 100],
    ]);
    const wavIn = readPcm16Wav(blobBytes(tracks[0].hash!));
    expect(wavIn).toMatchObject({ sampleRate: 16_000, channels: 1, frames: 1_600 });
    expect(Array.from(wavIn.samples.slice(318, 323))).toEqual([318, 319, 320, 321, 322]);
    expect(readPcm16Wav(blobBytes(tracks[1].hash!))).toMatchObject({ sampleRate: 24_000, frames: 2_400 });
    expect(getBlobRow(db, tracks[0].hash!)).toMatchObject({ refs: 1, mime: 'audio/wav' });

    const events = readRunEvents(db, 'sess1')!;
    expect(events.total).toBe(8);
    expect(events.events.map((e) => [e.direction, e.kind])).toEqual([['out', 'json'], ...Array(5).fill(['in', 'audio']), ['in', 'text'], ['out', 'audio']]);
    expect(events.events[3]).toMatchObject({ t: 140, data: '{"seq":2}', audio: { track: tracks[0].id, offsetMs: 40, durationMs: 20, bytes: 640 } });
    expect(marksOfRun(db, 'sess1').map((m) => [m.type, m.t, m.eventIndex])).toEqual([['speech_stopped', 180, 6], ['first_audio', 260, 8]]);
    expect(getSession(db, 'sess1')).toMatchObject({ state: 'ended', kind: 'transcription' });
    expect(getRun(db, 'sess1')).toMatchObject({ status: 'completed', timings: { totalMs: 1_000 }, eventCount: 8 });
    expect(readdirSync(join(dir, 'tracks'))).toEqual([]);
    expect(() => rec.event({ direction: 'in', kind: 'text', data: 'late' })).toThrow(/ended/);
  });

  it('pads a track with silence up to where a frame belongs on the session clock', async () => {
    const rec = open();
    clockMs = 50;
    await rec.openTrack('out', { sampleRate: 8_000 });
    rec.audio('out', ramp(80, 1), { atMs: 50 });
    const second = rec.audio('out', ramp(80, 1), { atMs: 200 });
    expect(second).toMatchObject({ offsetMs: 150, durationMs: 10 });
    const end = await rec.close();
    const wav = readPcm16Wav(blobBytes(end.tracks[0].hash));
    expect(wav.frames).toBe(1_200 + 80);
    expect(Array.from(wav.samples.slice(79, 82))).toEqual([80, 0, 0]);
    expect(wav.samples[1_200]).toBe(1);
  });

  it('refuses partial frames, a second track of one direction, and audio with no track', async () => {
    const rec = open();
    await rec.openTrack('in', { sampleRate: 16_000, channels: 2 });
    expect(() => rec.audio('in', new Uint8Array(6))).toThrow(/whole number of 4-byte frames/);
    await expect(rec.openTrack('in', { sampleRate: 16_000 })).rejects.toThrow(/already has/);
    expect(() => rec.audio('out', new Uint8Array(4))).toThrow(/no 'out' track/);
    await rec.close();
  });

  it('writes appended audio to disk within its flush interval without being asked', async () => {
    const rec = open('sess1', { flushMs: 10 });
    const id = await rec.openTrack('in', { sampleRate: 16_000 });
    rec.audio('in', ramp(160, 0));
    const pcm = join(dir, 'tracks', `${id}.pcm`);
    await expect.poll(() => statSync(pcm).size, { timeout: 5_000, interval: 5 }).toBe(320);
    await rec.close();
  });

  it('masks the connection key in captured events', async () => {
    const rec = open('sess1', { scrubber: new SecretScrubber(['sk-live-secret-key-123456']) });
    rec.event({ direction: 'in', kind: 'json', data: '{"echo":"sk-live-secret-key-123456"}' });
    await rec.close();
    expect(readRunEvents(db, 'sess1')!.events[0].data).not.toContain('sk-live-secret-key-123456');
  });

  it('a track whose disk writes fail: the session gets an error value, the audio written before is kept, the session still ends', async () => {
    const rec = open();
    await rec.openTrack('in', { sampleRate: 16_000 });
    rec.audio('in', ramp(1_600, 0));
    await rec.flush();
    // The disk goes away under the file (as a full disk or a yanked drive would fail it).
    const writer = (rec as unknown as { tracks: Map<string, { writer: { handle: { close(): Promise<void> } } }> }).tracks.get('in')!.writer;
    await writer.handle.close();
    rec.audio('in', ramp(160, 0));
    await expect(rec.flush()).rejects.toThrow();
    expect(() => rec.audio('in', ramp(160, 0))).toThrow(/incoming audio of this session can no longer be recorded/);
    const end = await rec.close();
    expect(end.tracks).toMatchObject([{ frames: 1_600 }]);
    expect(getSession(db, 'sess1')).toMatchObject({ state: 'ended', endReason: expect.stringMatching(/incoming track stopped early/) });
  });

  it('puts a monotonic time (a captured frame at) on the session clock', () => {
    clockMs = 5_000;
    const rec = open();
    expect(rec.toSessionMs(5_250)).toBe(250);
  });

  it('a run deleted from History while it records: the session ends without error and leaves nothing behind', async () => {
    const rec = open();
    await rec.openTrack('in', { sampleRate: 16_000 });
    rec.audio('in', ramp(160, 0));
    rec.event({ direction: 'in', kind: 'text', data: 'x' });
    deleteRun(db, 'sess1');
    rec.audio('in', ramp(160, 0));
    await expect(rec.close()).resolves.toMatchObject({ tracks: [], mix: null });
    expect(readdirSync(join(dir, 'tracks'))).toEqual([]);
    expect(db.prepare('SELECT COUNT(*) FROM audio_tracks').pluck().get()).toBe(0);
  });

  it('an aborted session keeps its recording and says why', async () => {
    const rec = open();
    await rec.openTrack('in', { sampleRate: 16_000 });
    rec.audio('in', ramp(160, 0));
    await rec.abort({ code: 'network', message: 'The service closed the socket mid-utterance.' });
    expect(getRun(db, 'sess1')).toMatchObject({ status: 'error', error: { code: 'network' } });
    expect(getSession(db, 'sess1')).toMatchObject({ state: 'aborted', endReason: 'The service closed the socket mid-utterance.' });
    expect(tracksOfRun(db, 'sess1')[0]).toMatchObject({ state: 'closed', frames: 160 });
  });
});

describe('stereo mix', () => {
  it('keeps a call as one stereo WAV in the gallery: microphone left, model right, lined up by track start, at the higher rate', async () => {
    const rec = open();
    await rec.openTrack('out', { sampleRate: 8_000, name: 'microphone', startMs: 0 });
    await rec.openTrack('in', { sampleRate: 16_000, name: 'model', startMs: 100 });
    const mic = new Int16Array(800).fill(1_000); // 100 ms
    const model = new Int16Array(3_200); // 200 ms of a ramp, starting 100 ms in
    for (let i = 0; i < model.length; i++) model[i] = i;
    rec.audio('out', new Uint8Array(mic.buffer));
    rec.audio('in', new Uint8Array(model.buffer));
    const end = await rec.close({}, { stereoMix: { name: 'call.wav' } });

    expect(end.mix).toMatchObject({ sampleRate: 16_000, frames: 4_800 });
    const wav = readPcm16Wav(blobBytes(end.mix!.hash));
    expect(wav).toMatchObject({ sampleRate: 16_000, channels: 2, frames: 4_800 });
    const left = (f: number): number => wav.samples[f * 2];
    const right = (f: number): number => wav.samples[f * 2 + 1];
    // The microphone fills the first 100 ms on the left (band-limited 8 -> 16 kHz: a step rings a
    // little at its edges), then silence.
    for (const f of [100, 800, 1_500]) expect(Math.abs(left(f) - 1_000)).toBeLessThanOrEqual(10);
    for (const f of [1_700, 2_500, 4_799]) expect(Math.abs(left(f))).toBeLessThanOrEqual(10);
    // The model is silent for its first 100 ms, then its samples one for one.
    expect([right(0), right(1_599), right(1_600), right(1_601), right(4_799)]).toEqual([0, 0, 0, 1, 3_199]);
    const item = listGallery(db, { kind: 'audio', limit: 5 }).items;
    expect(item).toMatchObject([{ id: end.mix!.galleryId, origin: 'recorded', runId: 'sess1', name: 'call.wav', duration: 0.3, hash: end.mix!.hash }]);
  });

  it('a call with no audio either way (transferred before the model spoke) gets no stereo mix; one empty side leaves the other alone', async () => {
    const silent = open('silent');
    await silent.openTrack('in', { sampleRate: 8_000, name: 'model', startMs: 0 });
    clockMs = 1_400;
    const none = await silent.close({}, { stereoMix: { name: 'call.wav' } });
    // The track is kept as what it is (an empty WAV, 0 frames: History says it has no audio)...
    expect(tracksOfRun(db, 'silent')).toMatchObject([{ name: 'model', state: 'closed', frames: 0 }]);
    // ...but no 0:00 mix goes to the gallery.
    expect(none.mix).toBeNull();
    expect(listGallery(db, { kind: 'audio', limit: 5 }).items).toEqual([]);

    const oneWay = open('oneway');
    await oneWay.openTrack('out', { sampleRate: 8_000, name: 'microphone', startMs: 0 });
    await oneWay.openTrack('in', { sampleRate: 8_000, name: 'model', startMs: 0 });
    oneWay.audio('in', new Uint8Array(new Int16Array(800).fill(500).buffer));
    const end = await oneWay.close({}, { stereoMix: { name: 'call.wav' } });
    const wav = readPcm16Wav(blobBytes(end.mix!.hash));
    expect(wav).toMatchObject({ channels: 2, frames: 800 });
    expect([wav.samples[0], wav.samples[1], wav.samples[1_599]]).toEqual([0, 500, 500]);
  });

  it('streams a long mix block by block without a seam: a 300 Hz tone at 8 kHz comes out as the same tone at 24 kHz', async () => {
    const rec = open();
    await rec.openTrack('out', { sampleRate: 8_000, startMs: 0 });
    await rec.openTrack('in', { sampleRate: 24_000, startMs: 0 });
    const tone = (rate: number, frames: number): Uint8Array => {
      const out = new Int16Array(frames);
      for (let i = 0; i < frames; i++) out[i] = Math.round(10_000 * Math.sin((2 * Math.PI * 300 * i) / rate));
      return new Uint8Array(out.buffer);
    };
    const mic = tone(8_000, 31_980);
    for (let i = 0; i < 30; i++) rec.audio('out', mic.subarray(i * 2_132, (i + 1) * 2_132)); // 30 pushes of 1,066 frames
    rec.audio('in', tone(24_000, 3 * 31_980));
    const end = await rec.close({}, { stereoMix: {} });
    const wav = readPcm16Wav(blobBytes(end.mix!.hash));
    expect(wav.frames).toBe(95_940);
    let worst = 0;
    for (let f = 200; f < wav.frames - 200; f++) {
      const ideal = 10_000 * Math.sin((2 * Math.PI * 300 * f) / 24_000);
      worst = Math.max(worst, Math.abs(wav.samples[f * 2] - ideal));
      expect(wav.samples[f * 2 + 1]).toBe(Math.round(ideal) + 0);
    }
    expect(worst).toBeLessThan(60);
  });
});

describe('recoverRecordings', () => {
  it('finalises a session left recording: whole frames kept, run marked as ended by a crash, files gone, blob-store sweeps leave tracks alone', async () => {
    const rec = open();
    const inId = await rec.openTrack('in', { sampleRate: 16_000 });
    clockMs = 40;
    const outId = await rec.openTrack('out', { sampleRate: 24_000 });
    for (let i = 0; i < 10; i++) rec.audio('in', ramp(320, i));
    rec.audio('out', ramp(480, 0));
    rec.mark('speech_started', { t: 10 });
    clockMs = 250;
    rec.event({ direction: 'in', kind: 'json', data: '{"type":"transcript.partial"}' });
    await rec.flush();
    // A write torn by the kill: half a frame at the end.
    appendFileSync(join(dir, 'tracks', `${inId}.pcm`), Buffer.from([1]));
    // Nothing closes the recorder: the process is gone. The blob store's start-up sweeps run first.
    await blobs.sweepTemps();
    await sweepOrphanBlobs(db, blobs, { graceMs: 0, now: Date.now() + 10_000 });
    expect(existsSync(join(dir, 'tracks', `${inId}.pcm`))).toBe(true);

    const report = await recoverRecordings(db, blobs, join(dir, 'tracks'), { now: 1_700_000_009_000 });
    expect(report).toEqual({ tracks: 2, sessions: 1, removed: 0, calls: ['sess1'], rebuilt: [] });
    const tracks = tracksOfRun(db, 'sess1');
    expect(tracks.map((t) => [t.id, t.state, t.frames])).toEqual([[inId, 'crashed', 3_200], [outId, 'crashed', 480]]);
    expect(readPcm16Wav(blobBytes(tracks[0].hash!)).frames).toBe(3_200);
    expect(getBlobRow(db, tracks[0].hash!)).toMatchObject({ refs: 1 });
    const session = getSession(db, 'sess1')!;
    expect(session.state).toBe('crashed');
    const run = getRun(db, 'sess1')!;
    expect(run.status).toBe('incomplete');
    expect(run.error?.message).toMatch(/ended abnormally.*kept up to 0:00\.250/);
    expect(run.timings.totalMs).toBe(250);
    expect(readRunEvents(db, 'sess1')!.total).toBe(12);
    expect(readdirSync(join(dir, 'tracks'))).toEqual([]);
    // Audio both ways: a call, so its stereo WAV is made as a clean close would have (once).
    expect(await mixRecoveredCalls(db, blobs, report.calls)).toBe(1);
    expect(await mixRecoveredCalls(db, blobs, report.calls)).toBe(0);
    const mixes = listGallery(db, { kind: 'audio', limit: 5 }).items;
    expect(mixes).toMatchObject([{ origin: 'recorded', runId: 'sess1' }]);
    expect(readPcm16Wav(blobBytes(mixes[0].hash))).toMatchObject({ channels: 2, sampleRate: 24_000, frames: 4_800 });
    // A second start has nothing left to do.
    expect(await recoverRecordings(db, blobs, join(dir, 'tracks'))).toEqual({ tracks: 0, sessions: 0, removed: 0, calls: [], rebuilt: [] });
  });

  it('a track whose file never appeared is an empty WAV; strays of finished tracks are removed', async () => {
    const rec = open();
    const id = await rec.openTrack('in', { sampleRate: 16_000 });
    rmSync(join(dir, 'tracks', `${id}.pcm`));
    rmSync(join(dir, 'tracks', `${id}.json`));
    writeFileSync(join(dir, 'tracks', 'trk_stray.pcm'), Buffer.alloc(10));
    const report = await recoverRecordings(db, blobs, join(dir, 'tracks'));
    expect(report).toMatchObject({ tracks: 1, sessions: 1, removed: 1 });
    expect(tracksOfRun(db, 'sess1')[0]).toMatchObject({ state: 'crashed', frames: 0, bytes: 44 });
    expect(readdirSync(join(dir, 'tracks'))).toEqual([]);
  });

  it('deleting a recorded run releases its track blobs for the sweep', async () => {
    const rec = open();
    await rec.openTrack('in', { sampleRate: 16_000 });
    rec.audio('in', ramp(160, 0));
    const end = await rec.close();
    deleteRun(db, 'sess1');
    expect(getBlobRow(db, end.tracks[0].hash)).toMatchObject({ refs: 0 });
    expect((await sweepOrphanBlobs(db, blobs, { graceMs: 0, now: Date.now() + 10_000 })).files).toBe(1);
  });
});
