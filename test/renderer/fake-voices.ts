/**
 * The `voices` family of the fake workbench: custom voices held in memory, paged by `limit` and a
 * token (the last id of the page, as the sandbox does), the PATCH rules of the shared schema,
 * reference clips and previews as fake blob hashes.
 */
import type { FamilyApi } from '../../shared/contract/api';
import { WorkbenchFailure } from '../../shared/contract/errors';
import { VoiceMetadataSchema, VoicePatchSchema, type CustomVoice, type VoiceChanged, type voicesContract } from '../../shared/families/voices/contract';

export interface FakeVoicesControls {
  voices: CustomVoice[];
  /** Every preview asked for, in order. */
  previews: Array<{ voiceId: string; text: string }>;
  /** Makes the next create reject with this message (`invalid_input`), as main does for a long clip. */
  failNextCreate: string | null;
  /** Emits `voices.changed` (as main does after another window's change). */
  emitChanged(changed: VoiceChanged): void;
}

let n = 0;
const hashOf = (seed: string) => seed.padEnd(64, '0').slice(0, 64).replace(/[^0-9a-f]/g, 'a');

export function createFakeVoices(record: (method: string, input: unknown) => void, initial: CustomVoice[] = []): { api: FamilyApi<typeof voicesContract>; controls: FakeVoicesControls } {
  const listeners = new Set<(c: VoiceChanged) => void>();
  const controls: FakeVoicesControls = { voices: [...initial], previews: [], failNextCreate: null, emitChanged: (c) => listeners.forEach((l) => l(c)) };
  const find = (id: string) => {
    const v = controls.voices.find((x) => x.voice_id === id);
    if (!v) throw new WorkbenchFailure({ code: 'not_found', status: 404, message: `Custom voice ${id} not found.` });
    return v;
  };
  const api: FamilyApi<typeof voicesContract> = {
    onChanged: (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    builtIn: async (input) => (record('voices.builtIn', input), ['eve', 'ara', 'leo', 'rex', 'sal'].map((id) => ({ voiceId: id, name: id[0]!.toUpperCase() + id.slice(1), language: 'multilingual' }))),
    list: async (input) => {
      record('voices.list', input);
      const limit = input.limit ?? 20;
      const start = input.paginationToken ? controls.voices.findIndex((v) => v.voice_id === input.paginationToken) + 1 : 0;
      const voices = controls.voices.slice(start, start + limit);
      return { voices, nextToken: voices.length === limit && start + limit < controls.voices.length ? voices.at(-1)!.voice_id : null };
    },
    get: async (input) => (record('voices.get', input), find(input.id)),
    create: async (input) => {
      record('voices.create', input);
      if (controls.failNextCreate) {
        const message = controls.failNextCreate;
        controls.failNextCreate = null;
        throw new WorkbenchFailure({ code: 'invalid_input', message });
      }
      const metadata = VoiceMetadataSchema.parse(input.metadata);
      const voice: CustomVoice = { voice_id: `vc${String(++n).padStart(6, '0')}`, description: null, gender: 'neutral', accent: null, age: null, language: 'en', use_case: 'conversational', tone: 'friendly', ...metadata, created_at: '2026-11-27T10:00:00Z' };
      controls.voices.push(voice);
      return { voice, runId: `run-voice-${n}` };
    },
    update: async (input) => {
      record('voices.update', input);
      const patch = VoicePatchSchema.parse(input.patch);
      const voice = find(input.id);
      Object.assign(voice, patch);
      return { voice: { ...voice }, runId: `run-voice-edit-${++n}` };
    },
    remove: async (input) => {
      record('voices.remove', input);
      find(input.id);
      controls.voices = controls.voices.filter((v) => v.voice_id !== input.id);
      return { deleted: true, runId: `run-voice-delete-${++n}` };
    },
    referenceAudio: async (input) => (record('voices.referenceAudio', input), find(input.id), { hash: hashOf(`ref${input.id}`), mime: 'audio/wav', size: 1000, duration: null }),
    preview: async (input) => {
      record('voices.preview', input);
      controls.previews.push({ voiceId: input.voiceId, text: input.text });
      return { hash: hashOf(`bbb${input.voiceId}`), mime: 'audio/wav', size: 2000, duration: 1.2 };
    },
  };
  return { api, controls };
}
