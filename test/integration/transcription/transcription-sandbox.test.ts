/**
 * TranscriptionService against the embedded sandbox's POST /v1/stt, with the real client, store,
 * blob store and gallery: a WAV of two eSpeak NG voices (its CLI) (low and high pitch, a pause between)
 * gives words timed within the audio and two speakers, the audio is kept in the gallery and the
 * run in History; audio sent by Files id or by URL is fetched by main and kept the same way (and
 * refused past the bound with a sentence, the transcript unaffected); a file that is not audio gets the service's words plus what it reads; a broken
 * field is refused before anything is sent.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../../main/sandbox';
import { ConnectionsService } from '../../../main/services/connections-service';
import { GalleryService } from '../../../main/services/gallery-service';
import { MediaService } from '../../../main/services/media-service';
import { UserFiles } from '../../../main/services/user-files';
import { TranscriptionService } from '../../../main/families/transcription/transcription-service';
import { FilesService } from '../../../main/families/files/files-service';
import * as filesApi from '../../../main/api/files';
import { DownloadTickets } from '../../../main/services/download-tickets';
import { BlobStore } from '../../../main/store/blobs';
import { closeDatabase, openDatabase, type Db } from '../../../main/store/db';
import { createMemoryKeyStore } from '../../../main/store/key-store';
import { getRun } from '../../../main/store/runs';
import { encodeWav, parseWav } from '../../../shared/audio/wav';
import { TranscribeSchema, type TranscribeChunk, type TranscribeInput } from '../../../shared/families/transcription/contract';
import { WorkbenchFailure } from '../../../shared/contract/errors';

const KEY = 'sk-sandbox-stt-integration';

/** eSpeak NG's CLI (a test-only tool), 22.05 kHz mono. */
async function speak(text: string, pitch: number): Promise<Int16Array> {
  const out = join(tmpdir(), `wb-stt-${process.pid}-${pitch}.wav`);
  execFileSync('espeak-ng', ['-v', 'en-us', '-p', String(pitch), '-w', out, text]);
  const parsed = parseWav(readFileSync(out));
  rmSync(out, { force: true });
  if (!parsed.ok) throw new Error(parsed.error.message);
  expect(parsed.value.sampleRate).toBe(22050);
  return parsed.value.samples;
}

describe('TranscriptionService against the sandbox', () => {
  let dir: string;
  let db: Db;
  let sandbox: SandboxServer;
  let connections: ConnectionsService;
  let userFiles: UserFiles;
  let gallery: GalleryService;
  let service: TranscriptionService;
  let twoVoices: string;
  let files: FilesService;
  let tickets: DownloadTickets;
  let seconds: number;
  let blobs: BlobStore;
  let small: TranscriptionService;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wb-stt-sandbox-'));
    db = openDatabase(':memory:');
    sandbox = await startSandbox({ keys: [KEY], tokenDelayMs: 0 });
    connections = new ConnectionsService({ db, keyStore: createMemoryKeyStore(), sandbox: { url: sandbox.url, key: KEY, port: sandbox.port, preferredPort: sandbox.port, preferredSource: 'default' }, emit: () => {} });
    blobs = new BlobStore(join(dir, 'blobs'));
    userFiles = new UserFiles({ stagingDir: join(dir, 'staging'), log: () => {} });
    const media = new MediaService(db, blobs, (hash) => ({ url: `/media/${hash}`, expiresAt: null }));
    gallery = new GalleryService({ db, blobs, media });
    tickets = new DownloadTickets({ dir: join(dir, 'downloads') });
    files = new FilesService({ db, connections, api: filesApi, userFiles, emitChanged: () => {}, tickets });
    service = new TranscriptionService({ db, connections, userFiles, gallery, files, remoteAudio: { tempDir: join(dir, 'remote') } });
    small = new TranscriptionService({ db, connections, userFiles, gallery, files, remoteAudio: { tempDir: join(dir, 'remote'), maxBytes: 50_000 } });
    const low = await speak('The quick brown fox jumps over the lazy dog near the river bank.', 10);
    const high = await speak('Seven silver spoons were found beneath the old wooden table.', 95);
    const pause = new Int16Array(22050);
    const samples = new Int16Array(low.length + pause.length + high.length);
    samples.set(low, 0);
    samples.set(high, low.length + pause.length);
    seconds = samples.length / 22050;
    twoVoices = join(dir, 'two-voices.wav');
    writeFileSync(twoVoices, encodeWav({ sampleRate: 22050, channels: 1, samples }));
  });
  afterAll(async () => {
    tickets.dispose();
    userFiles.dispose();
    await connections.dispose();
    await sandbox.close();
    closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  });

  const ctx = (chunks: TranscribeChunk[] = []) => ({ signal: new AbortController().signal, emit: (c: TranscribeChunk) => chunks.push(c) });
  const input = (i: TranscribeInput) => TranscribeSchema.parse(i);

  it('transcribes a dropped WAV of two voices: timed words, two speakers, the audio kept, the run recorded', async () => {
    const file = await userFiles.register(twoVoices);
    const chunks: TranscribeChunk[] = [];
    const out = await service.transcribe(input({ source: { kind: 'ref', ref: file.ref }, diarize: true, language: 'en' }), ctx(chunks));
    const words = out.result.words ?? [];
    expect(words.length).toBeGreaterThan(5);
    expect(out.result.duration).toBeCloseTo(seconds, 2);
    for (const [i, w] of words.entries()) {
      expect(w.end).toBeGreaterThan(w.start);
      expect(w.end).toBeLessThanOrEqual(seconds + 0.01);
      if (i > 0) expect(w.start).toBeGreaterThanOrEqual(words[i - 1]!.start);
    }
    const speakers = [...new Set(words.map((w) => w.speaker))];
    expect(speakers).toEqual([0, 1]);
    // The second voice starts after the pause.
    const firstHigh = words.find((w) => w.speaker === 1)!;
    expect(firstHigh.start).toBeGreaterThan(1.5);
    expect(chunks[0]).toMatchObject({ type: 'started', runId: out.runId, filename: 'two-voices.wav' });
    expect(out.audio).toMatchObject({ kind: 'audio', origin: 'input', name: 'two-voices.wav', mime: 'audio/wav', runId: out.runId });
    const run = getRun(db, out.runId)!;
    expect(run).toMatchObject({ status: 'completed', endpoint: 'transcription.transcribe', promptPreview: 'two-voices.wav' });
    expect(run.outputPreview).toContain(out.result.text.slice(0, 40));
    expect((run.request.body as { multipart: Array<{ name: string }> }).multipart.map((p) => p.name)).toEqual(['language', 'diarize', 'file']);
    expect(await service.ofRun({ runId: out.runId })).toMatchObject({ runId: out.runId, filename: 'two-voices.wav', result: out.result, audio: { id: out.audio!.id } });
  });

  it('records a file part by name, type and size: no local path in the stored request, the run or what the page reads', async () => {
    // A dropped file (registered by its path) and bytes made in the page (staged under the data folder).
    const dropped = await userFiles.register(twoVoices);
    const staged = await userFiles.stage('from the page.wav', 'audio/wav', Readable.from([readFileSync(twoVoices)]), statSync(twoVoices).size);
    for (const [file, name] of [[dropped, 'two-voices.wav'], [staged, 'from the page.wav']] as const) {
      const out = await service.transcribe(input({ source: { kind: 'ref', ref: file.ref } }), ctx());
      const run = getRun(db, out.runId)!;
      const parts = (run.request.body as { multipart: Array<Record<string, unknown>> }).multipart;
      expect(parts.at(-1)).toEqual({ name: 'file', filename: name, contentType: 'audio/wav', bytes: statSync(twoVoices).size });
      // Neither the user's folder nor the staging folder appears anywhere the page or History reads.
      for (const seen of [JSON.stringify(run), JSON.stringify(await service.ofRun({ runId: out.runId }))]) {
        expect(seen).not.toContain(dir);
        expect(seen).not.toContain('"path"');
      }
    }
  });

  it('transcribes an uploaded file by its Files id (sent as its public URL): the same words as the file itself; its audio fetched and kept', async () => {
    const uploaded = await files.upload({ ref: (await userFiles.register(twoVoices)).ref }, { signal: new AbortController().signal, emit: () => {} });
    const direct = await service.transcribe(input({ source: { kind: 'ref', ref: (await userFiles.register(twoVoices)).ref }, diarize: true }), ctx());
    const byId = await service.transcribe(input({ source: { kind: 'file', fileId: uploaded.id! }, diarize: true }), ctx());
    expect(byId.result.words).toEqual(direct.result.words);
    expect(byId).toMatchObject({ filename: 'two-voices.wav', audio: { kind: 'audio', origin: 'input', name: 'two-voices.wav', mime: 'audio/wav' } });
    // The bytes History plays are the file's, fetched through the Files content endpoint.
    expect(readFileSync(blobs.pathOf(byId.audio!.hash))).toEqual(readFileSync(twoVoices));
    const run = getRun(db, byId.runId)!;
    const parts = (run.request.body as { multipart: Array<{ name: string; value?: string }> }).multipart;
    expect(parts.map((p) => p.name)).toEqual(['diarize', 'url']);
    expect(parts[1]!.value).toMatch(/\/public\/[^/]+\/two-voices\.wav$/);
    expect(await service.ofRun({ runId: byId.runId })).toMatchObject({ audio: { id: byId.audio!.id } });
    expect(readdirSync(join(dir, 'remote'))).toEqual([]);
  });

  it('keeps the audio of a URL too, and past the bound says why it is not kept while the transcript still comes', async () => {
    const uploaded = await files.upload({ ref: (await userFiles.register(twoVoices)).ref }, { signal: new AbortController().signal, emit: () => {} });
    const url = (await files.createPublicUrl({ id: uploaded.id! })).publicUrl!;
    const tooBig = await small.transcribe(input({ source: { kind: 'url', url } }), ctx());
    expect(tooBig.audio).toBeNull();
    expect(tooBig.result.words?.length).toBeGreaterThan(5);
    const output = getRun(db, tooBig.runId)!.output as { audio: string | null; audioProblem: string | null };
    expect(output.audio).toBeNull();
    expect(tooBig.audioProblem).toBe(output.audioProblem);
    expect(output.audioProblem).toMatch(/^The audio at that URL is larger than the app keeps \(.+, the limit is .+\), so it is not kept for playback\.$/);

    const byUrl = await service.transcribe(input({ source: { kind: 'url', url } }), ctx());
    expect(byUrl.audio).toMatchObject({ kind: 'audio', name: 'two-voices.wav', mime: 'audio/wav' });
    expect(readFileSync(blobs.pathOf(byUrl.audio!.hash))).toEqual(readFileSync(twoVoices));

    // Nothing listens there: the service cannot read it either, and the run says both.
    const chunks: TranscribeChunk[] = [];
    const nowhere = await service.transcribe(input({ source: { kind: 'url', url: 'http://127.0.0.1:1/gone.wav' } }), ctx(chunks)).catch((e: unknown) => e);
    expect(nowhere).toBeInstanceOf(WorkbenchFailure);
    const failed = getRun(db, (chunks[0] as { runId: string }).runId)!;
    expect(failed.status).toBe('error');
    expect((failed.output as { audioProblem: string | null }).audioProblem).toMatch(/^The app could not fetch the audio at that URL to keep it for playback: ./);
  });

  it('explains a file that is not audio: the service’s words and the formats that work; the run failed', async () => {
    const bad = join(dir, 'notes.wav');
    writeFileSync(bad, 'these are not the bytes of a sound file, just text pretending');
    const file = await userFiles.register(bad);
    const chunks: TranscribeChunk[] = [];
    const err = await service.transcribe(input({ source: { kind: 'ref', ref: file.ref } }), ctx(chunks)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkbenchFailure);
    const { error } = err as WorkbenchFailure;
    expect(error.message).toMatch(/^The service could not read notes\.wav: /);
    expect(error.message).toContain('WAV, MP3, FLAC or Ogg/Opus');
    const runId = (chunks[0] as { runId: string }).runId;
    expect(getRun(db, runId)).toMatchObject({ status: 'error', error: { message: error.message } });
  });

  it('refuses broken fields in the contract, before anything is sent', () => {
    const problems = (i: Record<string, unknown>) => {
      const r = TranscribeSchema.safeParse({ source: { kind: 'url', url: 'https://x.test/a.wav' }, ...i });
      return r.success ? [] : r.error.issues.map((x) => x.message);
    };
    expect(problems({ audioFormat: 'pcm' })).toEqual(['raw pcm audio has no header: give its sample rate']);
    expect(problems({ format: true })).toEqual(['formatting (inverse text normalisation) needs a language']);
    expect(problems({ channels: 2 })).toEqual(['channels is only for raw audio; a container file says how many it has']);
    expect(problems({ audioFormat: 'pcm', sampleRate: 16000, multichannel: true })).toEqual(['multichannel raw audio needs its channels (2 to 8)']);
    expect(problems({ audioFormat: 'pcm', sampleRate: 16000, channels: 9 })).toEqual(['at most 8 channels']);
    expect(problems({ sampleRate: 11025 })).toHaveLength(2);
    expect(problems({ keyterms: Array.from({ length: 101 }, (_, i) => `t${i}`) })).toEqual(['at most 100 key terms']);
    expect(problems({ keyterms: ['x'.repeat(51)] })).toEqual(['a key term is at most 50 characters']);
    expect(problems({ language: 'english please' })).toHaveLength(1);
    expect(problems({ audioFormat: 'pcm', sampleRate: 16000, multichannel: true, channels: 2, language: 'pt-BR', format: true, keyterms: ['Inference'] })).toEqual([]);
  });
});
