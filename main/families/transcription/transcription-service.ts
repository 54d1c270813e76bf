/**
 * Transcription of one recording over REST (`POST /v1/stt`). The run is recorded before anything
 * is sent (the form fields in wire order, the audio described, never its bytes); the audio of a
 * user's file is kept in the gallery (kind `audio`) first, so History plays it offline whatever
 * the service answers. A Files id is sent as the file's public URL (made if it has none), a URL
 * as itself; meanwhile main fetches those bytes too (remote-audio.ts: the Files content through
 * the connection's client, the URL keyless, both bounded in size) and keeps them the same way, so
 * History plays them offline as well. Errors are values a person can act on: an audio file the service cannot read gets
 * the service's words plus what it does read.
 */
import type { z } from 'zod';
import * as sttApi from '../../api/stt';
import { toWorkbenchError, type ApiError } from '../../api/errors';
import { WorkbenchFailure, type WorkbenchError } from '../../../shared/contract/errors';
import type { GalleryItem } from '../../../shared/contract/gallery';
import type { MultipartDescription } from '../../../shared/contract/multipart';
import type { CapturedRequest, CapturedResponse } from '../../../shared/contract/runs';
import { STT_CONTAINER_FORMATS, type TranscribeChunk, type TranscribeResult, type TranscribeSchema } from '../../../shared/families/transcription/contract';
import type { FileRecord } from '../../../shared/families/files/contract';
import type { SttRequestFields } from '../../../shared/wire/stt';
import type { Db } from '../../store/db';
import { getRun, type RunUpdate } from '../../store/runs';
import type { ResolvedConnection } from '../../services/connections-service';
import type { GalleryService } from '../../services/gallery-service';
import { newRunId, RunRecorder } from '../../services/run-recorder';
import type { ResolvedFile } from '../../services/user-files';
import { keepRemoteAudio, type RemoteAudioOptions } from './remote-audio';
import { readTranscriptionOutput, transcriptionPreview, transcriptionText, type TranscriptionRunOutput } from './transcription-run-record';

type TranscribeInput = z.output<typeof TranscribeSchema>;

export interface TranscribeContext {
  signal: AbortSignal;
  emit(chunk: TranscribeChunk): void;
}

export interface TranscriptionServiceDeps {
  db: Db;
  connections: { resolve(id?: string): ResolvedConnection };
  userFiles: { resolve(ref: string): ResolvedFile };
  gallery: Pick<GalleryService, 'add' | 'row' | 'toItem'>;
  /** A Files id is sent as its public URL. */
  files: { createPublicUrl(input: { connectionId?: string; id: string }): Promise<FileRecord>; get(input: { connectionId?: string; id: string }): Promise<FileRecord> };
  api?: Pick<typeof sttApi, 'transcribe'>;
  /** Where audio sent by Files id or URL is fetched to be kept, and how much of it (remote-audio.ts). */
  remoteAudio?: RemoteAudioOptions;
  now?: () => number;
}

/** MIME types by extension, for a file whose type the system did not give. */
const AUDIO_MIME: Record<string, string> = { wav: 'audio/wav', mp3: 'audio/mpeg', flac: 'audio/flac', ogg: 'audio/ogg', opus: 'audio/ogg', pcm: 'audio/pcm', ulaw: 'audio/basic', mulaw: 'audio/basic', alaw: 'audio/alaw', m4a: 'audio/mp4', webm: 'audio/webm' };

export function audioMimeOf(name: string, given: string): string {
  if (given) return given;
  return AUDIO_MIME[name.toLowerCase().split('.').pop() ?? ''] ?? 'application/octet-stream';
}

/** The contract's fields as the wire names them (main/api/stt.ts sends them in a fixed order). */
export function wireFields(input: TranscribeInput): SttRequestFields {
  const out: SttRequestFields = {};
  if (input.audioFormat !== undefined) out.audio_format = input.audioFormat;
  if (input.sampleRate !== undefined) out.sample_rate = input.sampleRate;
  if (input.language) out.language = input.language;
  if (input.format !== undefined) out.format = input.format;
  if (input.multichannel !== undefined) out.multichannel = input.multichannel;
  if (input.channels !== undefined) out.channels = input.channels;
  if (input.diarize !== undefined) out.diarize = input.diarize;
  if (input.fillerWords !== undefined) out.filler_words = input.fillerWords;
  if (input.keyterms?.length) out.keyterm = input.keyterms;
  return out;
}

/** An error of the service about the audio itself (as opposed to the key, the network, a field). */
function aboutTheAudio(error: ApiError): boolean {
  return (error.status === 400 || error.status === 415 || error.status === 422) && /audio|decod|format|corrupt|unsupported|header|codec|wav|mp3|flac|ogg|opus/i.test(error.message);
}

/** The service's words, and for unreadable audio what it reads (and how raw audio is sent). */
export function explainSttError(error: ApiError, filename: string): WorkbenchError {
  const out = toWorkbenchError(error);
  if (aboutTheAudio(error)) {
    out.message = `The service could not read ${filename}: ${error.message.replace(/\.?$/, '.')} It reads ${STT_CONTAINER_FORMATS} files; raw PCM (16-bit), µ-law or A-law needs its format and sample rate chosen here.`;
  }
  return out;
}

export class TranscriptionService {
  private readonly api: Pick<typeof sttApi, 'transcribe'>;
  private readonly now: () => number;

  constructor(private readonly deps: TranscriptionServiceDeps) {
    this.api = deps.api ?? sttApi;
    this.now = deps.now ?? Date.now;
  }

  async transcribe(input: TranscribeInput, ctx: TranscribeContext): Promise<TranscribeResult> {
    const connection = this.deps.connections.resolve(input.connectionId);
    const fields = wireFields(input);
    const startedAt = this.now();
    // Where the audio comes from, resolved before the run starts: a vanished file is an error, not a run.
    const source = await this.source(input);
    const request = describeTranscription(connection, fields, source);
    const recorder = RunRecorder.start(this.deps.db, {
      id: newRunId(),
      createdAt: startedAt,
      endpoint: 'transcription.transcribe',
      model: '',
      connectionId: connection.profile.id,
      connectionName: connection.profile.name,
      isSandbox: connection.isSandbox,
      request,
      promptText: source.name,
      promptPreview: source.name,
      status: 'pending',
    });
    const runId = recorder.id;
    ctx.emit({ type: 'started', runId, filename: source.name });
    let finished = false;
    const finish = (update: RunUpdate): void => {
      finished = true;
      recorder.finish(connection.client.scrubber.value(update));
    };
    try {
      const output: TranscriptionRunOutput = { object: 'transcription.run', filename: source.name, audio: null, audioProblem: null, result: null };
      let audio: GalleryItem | null = null;
      if (source.file) {
        try {
          audio = await this.deps.gallery.add({ data: { path: source.file.path }, origin: 'input', kind: 'audio', mime: source.file.contentType, name: source.name, runId, dedupe: true });
          output.audio = audio.id;
        } catch (error) {
          // A full disk, say: the transcription goes on; the run says why its audio is missing.
          output.audioProblem = error instanceof Error ? error.message : String(error);
        }
        recorder.update({ output: { ...output }, outputPreview: 'Sending…' });
      }
      // Audio sent by reference is fetched beside the request (not before it: the transcript does not wait).
      const keeping = !source.file && this.deps.remoteAudio ? keepRemoteAudio(this.deps.remoteAudio, { client: connection.client, gallery: this.deps.gallery, scrubber: connection.client.scrubber }, source, runId, ctx.signal) : null;
      const sttSource: sttApi.SttSource = source.file ? { file: source.file } : { url: source.url! };
      const result = await this.api.transcribe(connection.client, sttSource, fields, {
        signal: ctx.signal,
        onProgress: (sent, total) => ctx.emit({ type: 'progress', sent, total }),
      });
      const timings = { startedAt, ttfbMs: result.meta?.ttfbMs ?? null, totalMs: this.now() - startedAt };
      if (keeping) {
        const kept = await keeping;
        audio = kept.audio;
        output.audio = kept.audio?.id ?? null;
        output.audioProblem = kept.problem;
      }
      if (!result.ok) {
        const cancelled = result.error.kind === 'cancelled' || ctx.signal.aborted;
        const error = cancelled ? null : explainSttError(result.error, source.name);
        const response: CapturedResponse | null = result.meta ? { status: result.meta.status, headers: result.meta.headers, body: result.error.body ?? null } : null;
        finish({ status: cancelled ? 'cancelled' : 'error', response, output: { ...output }, outputText: '', outputPreview: cancelled ? 'Cancelled before the service answered.' : (error?.message ?? ''), error, timings, retries: result.retries });
        throw new WorkbenchFailure(error ?? { code: 'cancelled', message: `The transcription of ${source.name} was cancelled.` });
      }
      output.result = result.value;
      const response: CapturedResponse = { status: result.meta.status, headers: result.meta.headers, body: result.value };
      finish({ status: 'completed', response, output: { ...output }, outputText: transcriptionText(result.value), outputPreview: transcriptionPreview(result.value), timings, retries: result.retries });
      return { runId, filename: source.name, result: result.value, audio, audioProblem: output.audioProblem, durationMs: timings.totalMs };
    } catch (error) {
      if (!finished) {
        const failure = error instanceof WorkbenchFailure ? error.error : { code: 'internal' as const, message: error instanceof Error ? error.message : String(error) };
        finish({ status: 'error', error: failure, timings: { startedAt, ttfbMs: null, totalMs: this.now() - startedAt } });
      }
      throw error;
    }
  }

  /** Run `runId`'s result again (History, a reload); null unless it is a finished transcription. */
  async ofRun({ runId }: { runId: string }): Promise<TranscribeResult | null> {
    const run = getRun(this.deps.db, runId);
    if (!run || run.endpoint !== 'transcription.transcribe') return null;
    const output = readTranscriptionOutput(run.output);
    if (!output?.result) return null;
    const row = output.audio ? this.deps.gallery.row(output.audio) : null;
    return { runId, filename: output.filename, result: output.result, audio: row ? await this.deps.gallery.toItem(row) : null, audioProblem: output.audioProblem, durationMs: run.timings.totalMs ?? 0 };
  }

  private async source(input: TranscribeInput): Promise<{ name: string; size?: number; file?: { path: string; filename: string; contentType: string }; url?: string; fileId?: string }> {
    const s = input.source;
    if (s.kind === 'ref') {
      const file = this.deps.userFiles.resolve(s.ref);
      return { name: file.name, size: file.size, file: { path: file.path, filename: file.name, contentType: audioMimeOf(file.name, file.type) } };
    }
    if (s.kind === 'url') return { name: s.url, url: s.url };
    const ref = { connectionId: input.connectionId, id: s.fileId };
    const known = await this.deps.files.get(ref);
    const fresh = known.publicUrl && (known.publicUrlExpiresAt === null || known.publicUrlExpiresAt > this.now() + 60_000);
    const record = fresh ? known : await this.deps.files.createPublicUrl(ref);
    if (!record.publicUrl) throw new WorkbenchFailure({ code: 'invalid_input', message: `The service gave no public URL for file ${s.fileId}, so it cannot be transcribed by id; download it and drop it here instead.` });
    return { name: record.filename || s.fileId, url: record.publicUrl, fileId: s.fileId };
  }
}

/** The recorded request: the form fields in wire order, then the audio described (or its url). */
export function describeTranscription(connection: ResolvedConnection, fields: SttRequestFields, source: { name: string; size?: number; file?: { contentType: string }; url?: string }): CapturedRequest {
  const base = connection.client.describe({ method: 'POST', path: sttApi.STT_PATH });
  const form = sttApi.sttFormFields(fields).map((f) => ({ name: f.name, value: String(f.value) }));
  const body: MultipartDescription = {
    multipart: source.file
      ? [...form, { name: 'file', filename: source.name, contentType: source.file.contentType, bytes: source.size ?? 0 }]
      : [...form, { name: 'url', value: source.url ?? '' }],
  };
  return { ...base, headers: { ...base.headers, 'content-type': 'multipart/form-data' }, body };
}
