/**
 * Custom voices per team: metadata, the reference clip's bytes and its median pitch (from which
 * the voice is synthesised, tts/voice-profiles.ts). With a folder (the state folder's
 * `custom-voices/`) each clip is a file `<voice_id>.audio` written before the voice exists and
 * removed with it; the records go to the `custom-voices.json` snapshot (state/persistence.ts).
 * Without one, clips stay in memory.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { list, obj, str } from '../state/shape';
import type { VoiceMetadata } from './rules';

export interface CustomVoice extends VoiceMetadata {
  voice_id: string;
  created_at: string;
}

interface Entry {
  team: string;
  voice: CustomVoice;
  medianHz: number | null;
  createdMs: number;
  /** In memory when the store has no folder. */
  audio: Buffer | null;
}

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

export class CustomVoiceStore {
  private readonly entries = new Map<string, Entry>();
  /** Called after each change; `created` when it hands the client a new id (saved at once). */
  onChange: (created?: boolean) => void = () => undefined;

  constructor(private readonly dir: string | null = null) {
    if (dir) mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  private newId(): string {
    for (;;) {
      const bytes = randomBytes(8);
      const id = [...bytes].map((b) => ID_ALPHABET[b % 36]).join('');
      if (!this.entries.has(id)) return id;
    }
  }

  private audioPath(id: string): string {
    return join(this.dir as string, `${id}.audio`);
  }

  create(team: string, metadata: VoiceMetadata, audio: Buffer, medianHz: number | null, nowMs: number): CustomVoice {
    const id = this.newId();
    const voice: CustomVoice = { voice_id: id, ...metadata, created_at: new Date(nowMs).toISOString().replace(/\.\d{3}Z$/, 'Z') };
    // The clip is on disk before the voice exists: a crash never leaves a voice without its audio.
    if (this.dir) writeFileSync(this.audioPath(id), audio, { mode: 0o600 });
    this.entries.set(id, { team, voice, medianHz, createdMs: nowMs, audio: this.dir ? null : audio });
    this.onChange(true);
    return voice;
  }

  private entry(team: string, id: string): Entry | undefined {
    const e = this.entries.get(id.toLowerCase());
    return e && e.team === team ? e : undefined;
  }

  get(team: string, id: string): CustomVoice | undefined {
    return this.entry(team, id)?.voice;
  }

  /** What synthesis needs: the median pitch and gender. */
  voiceTraits(team: string, id: string): { medianHz: number | null; gender: string } | undefined {
    const e = this.entry(team, id);
    return e && { medianHz: e.medianHz, gender: e.voice.gender };
  }

  audio(team: string, id: string): Buffer | undefined {
    const e = this.entry(team, id);
    if (!e) return undefined;
    return e.audio ?? readFileSync(this.audioPath(e.voice.voice_id));
  }

  update(team: string, id: string, changes: Partial<VoiceMetadata>): CustomVoice | undefined {
    const e = this.entry(team, id);
    if (!e) return undefined;
    e.voice = { ...e.voice, ...changes };
    this.onChange();
    return e.voice;
  }

  delete(team: string, id: string): boolean {
    const e = this.entry(team, id);
    if (!e) return false;
    this.entries.delete(e.voice.voice_id);
    if (this.dir) rmSync(this.audioPath(e.voice.voice_id), { force: true });
    this.onChange();
    return true;
  }

  /** A team's voices, oldest first, from after `afterId` (the previous page's token). */
  list(team: string, limit: number, afterId: string | null): { voices: CustomVoice[]; next: string | null } | { unknownToken: true } {
    const mine = [...this.entries.values()].filter((e) => e.team === team).sort((a, b) => a.createdMs - b.createdMs || a.voice.voice_id.localeCompare(b.voice.voice_id));
    let start = 0;
    if (afterId !== null) {
      const at = mine.findIndex((e) => e.voice.voice_id === afterId);
      if (at < 0) return { unknownToken: true };
      start = at + 1;
    }
    const page = mine.slice(start, start + limit);
    const more = start + limit < mine.length;
    return { voices: page.map((e) => e.voice), next: more ? page[page.length - 1].voice.voice_id : null };
  }

  snapshot(): unknown {
    return { version: 1, voices: [...this.entries.values()].map((e) => ({ team: e.team, voice: e.voice, medianHz: e.medianHz, createdMs: e.createdMs })) };
  }

  /** Restores records whose clip is on disk (others are dropped with a log line); removes clips no record owns. */
  restore(data: unknown, log: (line: string) => void): void {
    const o = obj(data, 'custom voices snapshot');
    if (o.version !== 1) throw new Error(`custom voices snapshot has version ${String(o.version)}, expected 1`);
    for (const item of list(o.voices, 'voices')) {
      const r = obj(item, 'custom voice');
      const voice = obj(r.voice, 'custom voice record') as unknown as CustomVoice;
      const id = str(voice as unknown as Record<string, unknown>, 'voice_id');
      if (!/^[a-z0-9]{8}$/.test(id)) throw new Error(`custom voice id "${id}" is malformed`);
      if (this.dir && !existsSync(this.audioPath(id))) {
        log(`custom voice ${id}: its reference audio is missing; the voice is dropped`);
        continue;
      }
      this.entries.set(id, { team: str(r, 'team'), voice, medianHz: typeof r.medianHz === 'number' ? r.medianHz : null, createdMs: typeof r.createdMs === 'number' ? r.createdMs : Date.parse(voice.created_at), audio: null });
    }
    if (this.dir) {
      for (const name of readdirSync(this.dir)) {
        const id = name.replace(/\.audio$/, '');
        if (!this.entries.has(id)) rmSync(join(this.dir, name), { force: true });
      }
    }
  }

  clear(): void {
    this.entries.clear();
  }
}
