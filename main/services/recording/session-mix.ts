/**
 * Keeps a session's stereo WAV (stereo-mix.ts: the `out` track, the microphone, left; the `in`
 * track, the model, right) in the media library as an audio item linked to its run: asked for by
 * `close(…, { stereoMix })`, and made at start-up for a call a crash cut short (a session with
 * audio both ways), so every call has one.
 */
import { tracksOfRun } from '../../store/audio-tracks';
import type { BlobStore } from '../../store/blobs';
import type { Db } from '../../store/db';
import { insertGalleryItem } from '../../store/gallery';
import { newGalleryId } from '../gallery-service';
import { writeStereoMix, type MixInput } from './stereo-mix';

export interface KeptMix {
  galleryId: string;
  hash: string;
  frames: number;
  sampleRate: number;
}

/**
 * The finalised track of `direction` with audio in it (the first, when there are several), as the
 * mixer reads it. An empty track (nothing came that way: a SIP call transferred before the model
 * spoke) is no input: a session with no audio at all gets no mix, rather than a 0:00 WAV in the
 * gallery that no player can decode.
 */
export function mixInputOf(db: Db, runId: string, direction: 'in' | 'out'): MixInput | null {
  const row = tracksOfRun(db, runId).find((t) => t.direction === direction && t.hash !== null && t.frames !== null && t.frames > 0);
  return row ? { hash: row.hash!, sampleRate: row.sampleRate, channels: row.channels, frames: row.frames!, startMs: row.startMs } : null;
}

/** Writes the mix and adds it to the gallery; null when the session has no finalised track with audio. */
export async function keepSessionMix(db: Db, blobs: BlobStore, runId: string, name: string, now: number): Promise<KeptMix | null> {
  const left = mixInputOf(db, runId, 'out');
  const right = mixInputOf(db, runId, 'in');
  if (!left && !right) return null;
  const mix = await writeStereoMix(blobs, left, right);
  const galleryId = newGalleryId();
  insertGalleryItem(db, {
    id: galleryId,
    kind: 'audio',
    origin: 'recorded',
    hash: mix.hash,
    mime: 'audio/wav',
    bytes: mix.size,
    width: null,
    height: null,
    duration: mix.frames / mix.sampleRate,
    prompt: '',
    revisedPrompt: null,
    model: null,
    name,
    createdAt: now,
    runId,
    jobId: null,
    sourceIds: [],
  });
  return { galleryId, hash: mix.hash, frames: mix.frames, sampleRate: mix.sampleRate };
}
