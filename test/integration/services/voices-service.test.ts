/**
 * The Voices service against the embedded sandbox, with the real client, blob store and files on
 * disk: built-in voices; clone from an espeak-ng WAV (recorded in History with its clip kept);
 * list pages; the PATCH rules; the reference clip kept once as a blob; a preview in the voice;
 * delete; and the clips refused before sending (over 120 s, not audio).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWav } from '../../../shared/audio/wav';
import { WorkbenchFailure } from '../../../shared/contract/errors';
import { VoiceUpdateSchema } from '../../../shared/families/voices/contract';
import { startSandbox, type SandboxServer } from '../../../main/sandbox';
import { ConnectionsService } from '../../../main/services/connections-service';
import { UserFiles } from '../../../main/services/user-files';
import { VoicesService } from '../../../main/families/voices/voices-service';
import { getBlobRow } from '../../../main/store/blob-rows';
import { BlobStore } from '../../../main/store/blobs';
import { closeDatabase, openDatabase, type Db } from '../../../main/store/db';
import { createMemoryKeyStore } from '../../../main/store/key-store';
import { deleteRun, getRun } from '../../../main/store/runs';

describe('VoicesService against the sandbox', () => {
  let dir: string;
  let db: Db;
  let sandbox: SandboxServer;
  let connections: ConnectionsService;
  let userFiles: UserFiles;
  let blobs: BlobStore;
  let service: VoicesService;
  const changes: Array<{ voiceId: string; change: string }> = [];
  const key = 'sk-sandbox-voices-integration';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wb-voices-int-'));
    db = openDatabase(':memory:');
    sandbox = await startSandbox({ keys: [key], tokenDelayMs: 0 });
    connections = new ConnectionsService({ db, keyStore: createMemoryKeyStore(), sandbox: { url: sandbox.url, key, port: sandbox.port, preferredPort: sandbox.port, preferredSource: 'default' }, emit: () => {} });
    userFiles = new UserFiles({ stagingDir: join(dir, 'staging'), log: () => {} });
    blobs = new BlobStore(join(dir, 'blobs'));
    service = new VoicesService({ db, blobs, connections, userFiles, emitChanged: ({ voiceId, change }) => changes.push({ voiceId, change }) });
    execFileSync('espeak-ng', ['-v', 'en+f3', '-w', join(dir, 'me.wav'), 'This is my voice, recorded for a clone.']);
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=220:duration=130', '-ar', '8000', join(dir, 'long.wav')]);
    writeFileSync(join(dir, 'notes.wav'), 'these are notes, not audio');
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', join(dir, 'me.wav'), '-c:a', 'libvorbis', join(dir, 'vorbis.ogg')]);
  }, 60_000);

  afterAll(async () => {
    userFiles.dispose();
    await connections.dispose();
    await sandbox.close();
    closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  });

  const refOf = async (name: string) => (await userFiles.register(join(dir, name))).ref;
  const failure = async (p: Promise<unknown>) => {
    const e = await p.then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(WorkbenchFailure);
    return (e as WorkbenchFailure).error;
  };

  it('lists the built-in voices', async () => {
    const voices = await service.builtIn();
    expect(voices.map((v) => v.voiceId).sort()).toEqual(['ara', 'eve', 'leo', 'rex', 'sal']);
  });

  it('clones a voice from a WAV, records the run with its clip, and serves the clip it sent', async () => {
    const { voice, runId } = await service.create({ ref: await refOf('me.wav'), metadata: { name: 'My clone', gender: 'female', use_case: 'narration', tone: 'warm' } });
    expect(voice).toMatchObject({ voice_id: expect.stringMatching(/^[a-z0-9]{8}$/), name: 'My clone', gender: 'female', use_case: 'narration', tone: 'warm' });
    const run = getRun(db, runId)!;
    expect(run).toMatchObject({ endpoint: 'voices.create', status: 'completed', promptPreview: 'My clone' });
    const parts = (run.request.body as { multipart: Array<{ name: string }> }).multipart.map((p) => p.name);
    expect(parts).toEqual(['name', 'gender', 'use_case', 'tone', 'file']);

    const clip = await service.referenceAudio({ id: voice.voice_id });
    expect(readFileSync(blobs.pathOf(clip.hash))).toEqual(readFileSync(join(dir, 'me.wav')));
    expect(clip.mime).toBe('audio/wav');
    // Kept by the run and by the voice's reference.
    expect(getBlobRow(db, clip.hash)?.refs).toBe(2);
    // The recorded request names the clip's blob (History plays it from there).
    const filePart = (run.request.body as { multipart: Array<{ name: string; blob?: { $blob: string; mime: string } }> }).multipart.at(-1)!;
    expect(filePart.blob).toEqual({ $blob: clip.hash, mime: 'audio/wav', encoding: 'base64' });
    // Deleting the run lets its hold on the clip go; the voice's reference still holds it.
    expect(deleteRun(db, runId)).toBe(true);
    expect(getBlobRow(db, clip.hash)?.refs).toBe(1);

    const preview = await service.preview({ voiceId: voice.voice_id, text: 'Hello from my clone.', language: 'en' });
    const wav = parseWav(readFileSync(blobs.pathOf(preview.hash)));
    expect(wav.ok && wav.value.durationMs).toBeGreaterThan(300);
    expect(preview.mime).toBe('audio/wav');
  });

  it('fetches the reference of a voice made elsewhere once, then keeps it', async () => {
    const form = new FormData();
    form.append('name', 'Made elsewhere');
    form.append('file', new Blob([new Uint8Array(readFileSync(join(dir, 'me.wav')))]), 'other.wav');
    const res = await fetch(`${sandbox.url}/v1/custom-voices`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
    const id = ((await res.json()) as { voice_id: string }).voice_id;
    const first = await service.referenceAudio({ id });
    expect(readFileSync(blobs.pathOf(first.hash))).toEqual(readFileSync(join(dir, 'me.wav')));
    // Gone from the service behind the app's back: the kept blob still answers, no second fetch.
    await fetch(`${sandbox.url}/v1/custom-voices/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } });
    expect(await service.referenceAudio({ id })).toEqual(first);
  });

  it('lists custom voices one page at a time', async () => {
    for (const name of ['Page A', 'Page B']) await service.create({ ref: await refOf('me.wav'), metadata: { name } });
    const all = await service.list({ limit: 1000 });
    expect(all.nextToken).toBeNull();
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await service.list({ limit: 2, ...(token ? { paginationToken: token } : {}) });
      expect(page.voices.length).toBeLessThanOrEqual(2);
      seen.push(...page.voices.map((v) => v.voice_id));
      token = page.nextToken ?? undefined;
      pages++;
    } while (token);
    expect(seen).toEqual(all.voices.map((v) => v.voice_id));
    expect(pages).toBe(Math.ceil(all.voices.length / 2) + (all.voices.length % 2 === 0 ? 1 : 0));
  });

  it('applies the PATCH rules: the contract refuses an empty patch, the service one that clears the name', async () => {
    const parsed = VoiceUpdateSchema.safeParse({ id: 'abcdefgh', patch: {} });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/Change at least one of name/);
    expect(VoiceUpdateSchema.safeParse({ id: 'abcdefgh', patch: { tone: 'grumpy' } }).error?.issues[0]?.message).toMatch(/"tone" must be one of warm/);

    const { voice } = await service.create({ ref: await refOf('me.wav'), metadata: { name: 'To edit', accent: 'Irish' } });
    const changed = await service.update({ id: voice.voice_id, patch: { tone: 'calm', accent: null } });
    expect(changed.voice).toMatchObject({ tone: 'calm', accent: null, name: 'To edit' });
    expect(getRun(db, changed.runId)).toMatchObject({ endpoint: 'voices.update', status: 'completed' });

    const refused = await failure(service.update({ id: voice.voice_id, patch: { name: null } }));
    expect(refused.status).toBe(400);
    expect(refused.message).toMatch(/name/);
  });

  it('deletes a voice, records it, and lets its kept clip go', async () => {
    const { voice } = await service.create({ ref: await refOf('me.wav'), metadata: { name: 'Short-lived' } });
    const clip = await service.referenceAudio({ id: voice.voice_id });
    const refs = getBlobRow(db, clip.hash)!.refs;
    const gone = await service.remove({ id: voice.voice_id });
    expect(gone.deleted).toBe(true);
    expect(getRun(db, gone.runId)).toMatchObject({ endpoint: 'voices.delete', status: 'completed', promptPreview: voice.voice_id });
    expect(getBlobRow(db, clip.hash)!.refs).toBe(refs - 1);
    expect((await failure(service.get({ id: voice.voice_id }))).status).toBe(404);
    expect(changes.filter((c) => c.voiceId === voice.voice_id).map((c) => c.change)).toEqual(['created', 'deleted']);
  });

  it('refuses a clip over 120 s and a file that is not audio before sending anything', async () => {
    const before = (db.prepare('SELECT COUNT(*) AS n FROM runs').get() as { n: number }).n;
    const long = await failure(service.create({ ref: await refOf('long.wav'), metadata: { name: 'Too long' } }));
    expect(long).toMatchObject({ code: 'invalid_input' });
    expect(long.message).toBe('long.wav is 130.0 s long; a voice is cloned from at most 120 s of audio. Trim it to 120 s or less.');
    const notes = await failure(service.create({ ref: await refOf('notes.wav'), metadata: { name: 'Notes' } }));
    expect(notes.message).toMatch(/notes\.wav is not WAV, MP3, FLAC or Ogg Opus audio/);
    expect((db.prepare('SELECT COUNT(*) AS n FROM runs').get() as { n: number }).n).toBe(before);
  });

  it("passes on the service's reason for audio only decoding can refuse (Ogg Vorbis), and records the failed clone", async () => {
    const error = await failure(service.create({ ref: await refOf('vorbis.ogg'), metadata: { name: 'Vorbis' } }));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/Ogg Vorbis audio cannot be decoded/);
    const run = db.prepare("SELECT id FROM runs WHERE endpoint = 'voices.create' ORDER BY created_at DESC, rowid DESC LIMIT 1").get() as { id: string };
    expect(getRun(db, run.id)).toMatchObject({ status: 'error', promptPreview: 'Vorbis', error: { message: error.message } });
  });
});
