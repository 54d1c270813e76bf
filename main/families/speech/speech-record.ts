/**
 * What a speech run keeps in its History record (`output`): the result without the gallery item
 * (only its id: the item is read fresh, with a current media URL, when the run is opened), and the
 * audio's size. Read back tolerantly: a record from another build gives null, not a crash.
 */
import type { JsonObject } from '../../../shared/contract/runs';
import type { SpeechRunResult } from '../../../shared/families/speech/contract';

export interface SpeechRunOutput {
  object: 'speech.run';
  galleryId: string | null;
  audioBytes: number;
  result: Omit<SpeechRunResult, 'audio' | 'runId'>;
}

export function speechOutput(result: SpeechRunResult, audioBytes: number): JsonObject {
  const { audio, runId: _runId, ...rest } = result;
  const out: SpeechRunOutput = { object: 'speech.run', galleryId: audio?.id ?? null, audioBytes, result: rest };
  return out as unknown as JsonObject;
}

export function readSpeechOutput(output: unknown): SpeechRunOutput | null {
  const o = output as Partial<SpeechRunOutput> | null;
  if (!o || o.object !== 'speech.run' || typeof o.result !== 'object' || o.result === null) return null;
  return { object: 'speech.run', galleryId: typeof o.galleryId === 'string' ? o.galleryId : null, audioBytes: typeof o.audioBytes === 'number' ? o.audioBytes : 0, result: o.result };
}
