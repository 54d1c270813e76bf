/**
 * Audio sent to `POST /v1/stt` by reference (a Files id or a URL) is fetched by main as well and
 * kept in the gallery (kind `audio`, origin `input`, the run's id), so History plays it offline
 * with the words in sync, as it does an uploaded file. The Files content comes through the
 * connection's client (`GET /v1/files/{id}/content`); a URL is fetched keyless. Both are bounded
 * (`maxBytes`): a bigger one, or one that fails, leaves the transcription alone and says in the
 * run why its audio is not kept. Never throws.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { GalleryItem } from '../../../shared/contract/gallery';
import { downloadAudioUrl, downloadFileAudio, type DownloadedAudio } from '../../api/audio-download';
import type { ApiClient, ApiResult } from '../../api/client';
import type { SecretScrubber } from '../../api/secret-scrubber';
import type { GalleryService } from '../../services/gallery-service';

/** Default bound on audio fetched to be kept (10 minutes of 48 kHz stereo WAV is 110 MB). */
export const MAX_KEPT_REMOTE_AUDIO_BYTES = 256 * 2 ** 20;

export interface RemoteAudioOptions {
  /** A folder of the app's own for the download in progress (removed once the gallery has the bytes). */
  tempDir: string;
  maxBytes?: number;
  /** Tests: the keyless client used for a URL. */
  clientFor?: (origin: string) => ApiClient;
}

export interface RemoteAudioDeps {
  client: ApiClient;
  gallery: Pick<GalleryService, 'add'>;
  scrubber: SecretScrubber;
}

/** MIME types by extension, for a server that gave no useful type. */
const BY_EXTENSION: Record<string, string> = { wav: 'audio/wav', mp3: 'audio/mpeg', flac: 'audio/flac', ogg: 'audio/ogg', opus: 'audio/ogg' };

/** The audio's type: the server's when it is audio, else from the name's extension, else from the bytes (the gallery probes). */
function mimeOf(name: string, given: string | null): string | undefined {
  if (given && given.startsWith('audio/')) return given;
  const ext = name.split(/[?#]/)[0]!.toLowerCase().split('.').pop() ?? '';
  return BY_EXTENSION[ext] ?? (given && given !== 'application/octet-stream' ? given : undefined);
}

/** Fetches the audio of `source` and keeps it for run `runId`: the gallery item, or why there is none. */
export async function keepRemoteAudio(
  opts: RemoteAudioOptions,
  deps: RemoteAudioDeps,
  source: { name: string; url?: string; fileId?: string },
  runId: string,
  signal: AbortSignal,
): Promise<{ audio: GalleryItem | null; problem: string | null }> {
  const maxBytes = opts.maxBytes ?? MAX_KEPT_REMOTE_AUDIO_BYTES;
  const dest = join(opts.tempDir, `stt-${randomBytes(8).toString('hex')}.audio`);
  try {
    await mkdir(opts.tempDir, { recursive: true, mode: 0o700 });
    let got: ApiResult<DownloadedAudio>;
    if (source.fileId) got = await downloadFileAudio(deps.client, source.fileId, dest, { maxBytes, signal });
    else if (source.url) got = await downloadAudioUrl(source.url, dest, { maxBytes, signal, scrubber: deps.scrubber, clientFor: opts.clientFor });
    else return { audio: null, problem: null };
    if (!got.ok) {
      const what = source.fileId ? `file ${source.fileId}` : 'the audio at that URL';
      const why = got.error.code === 'too_large' ? got.error.message : `The app could not fetch ${what} to keep it for playback: ${got.error.message}`;
      return { audio: null, problem: deps.scrubber.value(why) };
    }
    const mime = mimeOf(source.name, got.value.contentType);
    const name = source.name.split(/[?#]/)[0]!.split('/').pop() || source.name;
    const audio = await deps.gallery.add({ data: { path: dest }, origin: 'input', kind: 'audio', ...(mime ? { mime } : {}), name, runId, dedupe: true });
    return { audio, problem: null };
  } catch (error) {
    // A full disk, say: the transcription goes on; the run says why its audio is missing.
    const message = error instanceof Error ? error.message : String(error);
    return { audio: null, problem: deps.scrubber.value(`The audio could not be kept for playback: ${message}`) };
  } finally {
    await rm(dest, { force: true }).catch(() => undefined);
  }
}
