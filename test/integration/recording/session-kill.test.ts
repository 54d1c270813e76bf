/**
 * A live session's recording survives a kill -9 of main: a whole app in a child process records
 * a call (audio both ways, events both ways, marks), flushes, reports what is durable, and is
 * SIGKILLed mid-session (a half frame torn at the end of a track). A fresh app on the same data
 * folder finalises both tracks into WAV blobs of exactly the durable length (a player reads them:
 * our header check and ffprobe), History says the session ended abnormally, and every event up to
 * the kill reads back in order.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../../main/app';
import { createFileKeyStore } from '../../../main/store/key-file';
import { exited, spawnScript, type Child } from '../child-process';
import { readPcm16Wav } from '../../unit/main/services/recording/wav-check';

const CHILD = join(__dirname, 'session-child.ts');
const CTX = { sessionId: 'test', signal: new AbortController().signal };
const ROUNDS = 60;

function ffprobeSeconds(path: string): number | null {
  try {
    return Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path], { encoding: 'utf8' }).trim());
  } catch {
    return null; // ffprobe is a test-only tool; the header check above stands alone without it.
  }
}

describe('a live session recording across a main-process kill', () => {
  let dataDir: string;
  let child: Child | null = null;
  let app: App | null = null;

  afterEach(async () => {
    if (child && child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
    if (child) await exited(child.process);
    await app?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is finalised at the next start: WAVs of the written length, marked as ended by a crash, events kept', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'wb-rec-kill-'));
    child = spawnScript(CHILD, [dataDir, String(ROUNDS)]);
    await expect.poll(() => child!.output(), { timeout: 60_000, interval: 20 }).toMatch(/^idle$/m);
    const durable = [...child.output().matchAll(/^durable (\S+) (\d+) (\d+) (\d+) (\S+)$/gm)].at(-1)!;
    const [, runId, micFrames, modelFrames, eventCount, micTrack] = durable;
    expect(Number(micFrames)).toBe(ROUNDS * 320);
    child.process.kill('SIGKILL');
    expect(await exited(child.process)).toBe('SIGKILL');
    // The kill left the tracks growing in the data folder, the half frame at the end of one.
    expect(readdirSync(join(dataDir, 'tracks')).sort()).toContain(`${micTrack}.pcm`);

    const logs: string[] = [];
    app = await createApp({ dataDir, shell: 'browser', keyStore: createFileKeyStore(join(dataDir, 'keys.json')), emit: () => undefined, log: (l) => logs.push(l), version: 'test' });
    expect(app.recordings.recovered).toMatchObject({ tracks: 2, sessions: 1, calls: [runId] });
    expect(readdirSync(join(dataDir, 'tracks'))).toEqual([]);

    const run = await app.handlers.history.get({ id: runId }, CTX);
    expect(run.status).toBe('incomplete');
    expect(run.error?.message).toMatch(/ended abnormally/);
    const db = new Database(join(dataDir, 'workbench.db'), { readonly: true });
    const session = db.prepare('SELECT state FROM recording_sessions WHERE run_id = ?').get(runId);
    const tracks = db.prepare('SELECT name, direction, state, sample_rate, frames, hash, start_ms FROM audio_tracks WHERE run_id = ? ORDER BY name').all(runId) as Array<{ name: string; direction: string; state: string; sample_rate: number; frames: number; hash: string; start_ms: number }>;
    db.close();
    expect(session).toEqual({ state: 'crashed' });
    const expected: Record<string, number> = { microphone: Number(micFrames), model: Number(modelFrames) };
    expect(tracks.map((t) => [t.name, t.direction, t.state])).toEqual([['microphone', 'out', 'crashed'], ['model', 'in', 'crashed']]);
    for (const track of tracks) {
      const path = app.media.blobs.pathOf(track.hash);
      const wav = readPcm16Wav(readFileSync(path));
      expect(wav.sampleRate).toBe(track.sample_rate);
      expect(Math.abs(wav.frames - expected[track.name])).toBeLessThanOrEqual(1);
      expect(track.frames).toBe(wav.frames);
      const seconds = ffprobeSeconds(path);
      if (seconds !== null) expect(Math.abs(seconds - expected[track.name] / track.sample_rate)).toBeLessThanOrEqual(1 / track.sample_rate + 1e-6);
    }

    // The call's stereo WAV (microphone left, model right) is in the media library, as long as the track that ends last.
    await app.recordings.settled();
    const mixes = await app.handlers.gallery.ofRun({ runId }, CTX);
    expect(mixes).toMatchObject([{ kind: 'audio', origin: 'recorded' }]);
    const stereo = readPcm16Wav(readFileSync(app.media.blobs.pathOf(mixes[0].hash)));
    expect(stereo).toMatchObject({ channels: 2, sampleRate: 24_000 });
    const first = Math.min(...tracks.map((t) => t.start_ms));
    const longest = Math.max(...tracks.map((t) => Math.round(((t.start_ms - first) * 24_000) / 1000) + Math.ceil((t.frames * 24_000) / t.sample_rate)));
    expect(stereo.frames).toBe(longest);

    // History's session view: said to have ended abnormally, both tracks playable, the timeline paged.
    const record = await app.handlers.history.session({ id: runId }, CTX);
    expect(record).toMatchObject({ kind: 'realtime', state: 'crashed', endReason: expect.stringMatching(/ended abnormally/) });
    expect(record.tracks.map((t) => [t.name, t.state, t.media?.url.startsWith('/media/')])).toEqual([['microphone', 'crashed', true], ['model', 'crashed', true]]);
    expect(record.marks.map((m) => m.type)).toEqual(Array(Math.floor(ROUNDS / 7)).fill('speech_stopped'));
    const lastPage = await app.handlers.history.timeline({ id: runId, offset: record.timelineTotal - 3, limit: 10 }, CTX);
    expect(lastPage.items).toHaveLength(3);

    const events = await app.handlers.history.events({ id: runId, offset: 0, limit: 5_000 }, CTX);
    expect(events.total).toBeGreaterThanOrEqual(Number(eventCount));
    const durableEvents = events.events.slice(0, Number(eventCount));
    expect(durableEvents.filter((e) => e.kind === 'audio').length).toBe(Number(eventCount) / 2);
    expect(JSON.parse(durableEvents.at(-1)!.data)).toEqual({ type: 'response.output_audio_transcript.delta', delta: `word${ROUNDS} ` });
    expect(durableEvents.map((e) => e.direction).slice(0, 4)).toEqual(['out', 'out', 'in', 'in']);
  }, 120_000);
});
