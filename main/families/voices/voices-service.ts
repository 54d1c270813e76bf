/**
 * The Voices family in main: built-in voices, the team's custom voices (one page at a time),
 * clone from a file reference, PATCH, delete (each recorded in History: voice-runs.ts), the
 * reference clip and a spoken preview kept as blobs the page loads by URL. Which blob holds a
 * voice's clip or preview is remembered in the settings table (`voices.audio:` / `voices.preview:`
 * keys, one blob reference each), so a clip is fetched from the service once, also across restarts.
 */
import type { z } from 'zod';
import { synthesize, listBuiltInVoices } from '../../api/tts';
import { createCustomVoice, deleteCustomVoice, getCustomVoice, getCustomVoiceAudio, listCustomVoices, updateCustomVoice } from '../../api/voices';
import { toWorkbenchError } from '../../api/errors';
import { WorkbenchFailure } from '../../../shared/contract/errors';
import type { MultipartDescription } from '../../../shared/contract/multipart';
import type {
  BuiltInVoiceInfo,
  CustomVoice,
  CustomVoicePage,
  VoiceAudioBlob,
  VoiceChange,
  VoiceChanged,
  VoiceCreateSchema,
  VoiceListSchema,
  VoicePreviewSchema,
  VoiceRefSchema,
  VoiceUpdateSchema,
} from '../../../shared/families/voices/contract';
import { VOICE_METADATA_FIELDS, type CustomVoiceCreate, type CustomVoicePatch } from '../../../shared/wire/voices';
import { addBlobRef, getBlobRow, releaseBlobRef } from '../../store/blob-rows';
import type { BlobStore } from '../../store/blobs';
import type { Db } from '../../store/db';
import { getSetting, setSetting } from '../../store/settings';
import type { ConnectionsService, ResolvedConnection } from '../../services/connections-service';
import type { UserFiles } from '../../services/user-files';
import { checkReferenceClip } from './reference-clip';
import { keepFile, recordedCall } from './voice-runs';

export interface VoicesServiceDeps {
  db: Db;
  blobs: BlobStore;
  connections: ConnectionsService;
  userFiles: UserFiles;
  /** `voices.changed` to every window. */
  emitChanged?: (changed: VoiceChanged) => void;
  now?: () => number;
}

type Kept = { hash: string; mime: string; size: number; duration: number | null };

function fail(error: Parameters<typeof toWorkbenchError>[0]): never {
  throw new WorkbenchFailure(toWorkbenchError(error));
}

/** A voice's name for History and messages. */
function voiceLabel(voice: CustomVoice): string {
  return voice.name ? `${voice.name} (${voice.voice_id})` : voice.voice_id;
}

export class VoicesService {
  constructor(private readonly deps: VoicesServiceDeps) {}

  async builtIn(input?: { connectionId?: string }): Promise<BuiltInVoiceInfo[]> {
    const result = await listBuiltInVoices(this.deps.connections.resolve(input?.connectionId).client);
    if (!result.ok) fail(result.error);
    return result.value.voices.map((v) => ({ voiceId: v.voice_id, name: v.name ?? v.voice_id, language: v.language ?? null }));
  }

  async list(input: z.output<typeof VoiceListSchema>): Promise<CustomVoicePage> {
    const query = { limit: input.limit, ...(input.paginationToken ? { pagination_token: input.paginationToken } : {}) };
    const result = await listCustomVoices(this.deps.connections.resolve(input.connectionId).client, query);
    if (!result.ok) fail(result.error);
    const { voices, pagination_token } = result.value;
    // A page shorter than the limit is the last, whatever token the service sent with it.
    return { voices, nextToken: pagination_token && voices.length >= input.limit ? pagination_token : null };
  }

  async get(input: z.output<typeof VoiceRefSchema>): Promise<CustomVoice> {
    const result = await getCustomVoice(this.deps.connections.resolve(input.connectionId).client, input.id);
    if (!result.ok) fail(result.error);
    return result.value;
  }

  async create(input: z.output<typeof VoiceCreateSchema>): Promise<VoiceChange> {
    const connection = this.deps.connections.resolve(input.connectionId);
    const file = this.deps.userFiles.resolve(input.ref);
    const check = await checkReferenceClip(file.path, file.name, file.size);
    if (!check.ok) throw new WorkbenchFailure({ code: 'invalid_input', message: check.message });
    const metadata = input.metadata as CustomVoiceCreate;
    const clip = await keepFile(this.deps.blobs, file.path, check.mime);
    const contentType = file.type || check.mime;
    const { value, runId } = await recordedCall(
      this.deps.db,
      connection,
      { endpoint: 'voices.create', request: describeCreate(connection, metadata, { name: file.name, size: file.size, type: contentType, hash: clip.hash }), prompt: metadata.name ?? file.name, blobs: [clip] },
      () => createCustomVoice(connection.client, { path: file.path, filename: file.name, contentType }, metadata),
      (voice) => `Cloned ${voiceLabel(voice)} from ${file.name}`,
      this.deps.now,
    );
    // The clip just sent is the voice's reference: no need to fetch it back.
    this.keep(audioKey(connection, value.voice_id), { ...clip, duration: check.seconds });
    this.deps.userFiles.release(input.ref);
    this.deps.emitChanged?.({ connectionId: connection.profile.id, voiceId: value.voice_id, change: 'created' });
    return { voice: value, runId };
  }

  async update(input: z.output<typeof VoiceUpdateSchema>): Promise<VoiceChange> {
    const connection = this.deps.connections.resolve(input.connectionId);
    const patch = input.patch as CustomVoicePatch;
    const request = connection.client.describe({ method: 'PATCH', path: `/v1/custom-voices/${encodeURIComponent(input.id)}`, body: patch });
    const { value, runId } = await recordedCall(
      this.deps.db,
      connection,
      { endpoint: 'voices.update', request, prompt: `${input.id}: ${Object.keys(patch).join(', ')}` },
      () => updateCustomVoice(connection.client, input.id, patch),
      (voice) => `Updated ${voiceLabel(voice)}`,
      this.deps.now,
    );
    this.deps.emitChanged?.({ connectionId: connection.profile.id, voiceId: value.voice_id, change: 'updated' });
    return { voice: value, runId };
  }

  async remove(input: z.output<typeof VoiceRefSchema>): Promise<{ deleted: boolean; runId: string }> {
    const connection = this.deps.connections.resolve(input.connectionId);
    const request = connection.client.describe({ method: 'DELETE', path: `/v1/custom-voices/${encodeURIComponent(input.id)}` });
    const { value, runId } = await recordedCall(
      this.deps.db,
      connection,
      { endpoint: 'voices.delete', request, prompt: input.id },
      () => deleteCustomVoice(connection.client, input.id),
      (answer) => (answer.deleted ? `Deleted ${input.id}` : `The service did not delete ${input.id}`),
      this.deps.now,
    );
    if (value.deleted) {
      this.forget(audioKey(connection, input.id));
      this.forget(previewKey(connection, input.id));
      this.deps.emitChanged?.({ connectionId: connection.profile.id, voiceId: input.id, change: 'deleted' });
    }
    return { deleted: value.deleted, runId };
  }

  async referenceAudio(input: z.output<typeof VoiceRefSchema>): Promise<VoiceAudioBlob> {
    const connection = this.deps.connections.resolve(input.connectionId);
    const key = audioKey(connection, input.id);
    const kept = this.kept(key);
    if (kept) return kept;
    const result = await getCustomVoiceAudio(connection.client, input.id);
    if (!result.ok) fail(result.error);
    const mime = result.value.contentType?.split(';')[0]?.trim() || 'application/octet-stream';
    const blob = await this.deps.blobs.put(result.value.bytes);
    return this.keep(key, { ...blob, mime, duration: null });
  }

  async preview(input: z.output<typeof VoicePreviewSchema>): Promise<VoiceAudioBlob> {
    const connection = this.deps.connections.resolve(input.connectionId);
    const result = await synthesize(connection.client, { text: input.text, language: input.language, voice_id: input.voiceId, output_format: { codec: 'wav' } });
    if (!result.ok) fail(result.error);
    const speech = result.value;
    const blob = await this.deps.blobs.put(speech.audio);
    return this.keep(previewKey(connection, input.voiceId), { ...blob, mime: speech.contentType || 'audio/wav', duration: speech.duration });
  }

  /** The blob kept under `key`, when its row and file are still there. */
  private kept(key: string): VoiceAudioBlob | null {
    const kept = getSetting<Kept>(this.deps.db, key);
    if (!kept) return null;
    const row = getBlobRow(this.deps.db, kept.hash);
    return row && row.refs > 0 ? kept : null;
  }

  /** Remembers `blob` under `key` (one reference), letting go of the blob kept there before. */
  private keep(key: string, blob: Kept): VoiceAudioBlob {
    const db = this.deps.db;
    const now = (this.deps.now ?? Date.now)();
    db.transaction(() => {
      const before = getSetting<Kept>(db, key);
      addBlobRef(db, blob, now);
      if (before) releaseBlobRef(db, before.hash);
      setSetting(db, key, blob);
    })();
    return { hash: blob.hash, mime: blob.mime, size: blob.size, duration: blob.duration };
  }

  private forget(key: string): void {
    const db = this.deps.db;
    db.transaction(() => {
      const before = getSetting<Kept>(db, key);
      if (before) releaseBlobRef(db, before.hash);
      setSetting(db, key, undefined);
    })();
  }
}

function audioKey(connection: ResolvedConnection, voiceId: string): string {
  return `voices.audio:${connection.profile.id}:${voiceId.toLowerCase()}`;
}

function previewKey(connection: ResolvedConnection, voiceId: string): string {
  return `voices.preview:${connection.profile.id}:${voiceId.toLowerCase()}`;
}

/**
 * The recorded clone request: metadata fields in wire order, then the clip described (never its
 * bytes) with a reference to the blob the run keeps it in (History plays it; a deleted run lets it go).
 */
function describeCreate(connection: ResolvedConnection, metadata: CustomVoiceCreate, file: { name: string; size: number; type: string; hash: string }) {
  const base = connection.client.describe({ method: 'POST', path: '/v1/custom-voices' });
  const fields = VOICE_METADATA_FIELDS.flatMap((name) => (metadata[name] !== undefined ? [{ name, value: String(metadata[name]) }] : []));
  const body: MultipartDescription = { multipart: [...fields, { name: 'file', filename: file.name, contentType: file.type, bytes: file.size, blob: { $blob: file.hash, mime: file.type, encoding: 'base64' } }] };
  return { ...base, headers: { ...base.headers, 'content-type': 'multipart/form-data' }, body };
}
