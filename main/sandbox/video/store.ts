/**
 * Video jobs, per team, on the sandbox clock: each is pending until its ready time, then done
 * (or, when a failure was asked for, failed halfway there). Also the URL tokens of results and
 * the plans of the videos this sandbox made, by the hash of their bytes, so an edit or an
 * extension of one of them (by URL, data URL or file) continues its scene. Bounded like the
 * deferred completions (oldest dropped first); with a state folder, snapshot() and restore() keep
 * it across restarts (see state/persistence.ts).
 */
import type { VideoErrorCode, VideoResolution } from '../../../shared/wire/videos';
import { list, num, numOrNull, obj, str, strOrNull } from '../state/shape';
import type { ScenePlan } from './frames';
import type { StorageRequest, VideoKind } from './request';

/** What storing the result did (once, when the job became done). */
export interface Delivery {
  storageError: string | null;
  file: {
    fileId: string;
    filename: string;
    expiresAt: number | null;
    /** `/public/<token>/<name>`: the URL without its origin, which is the poll's. */
    publicPath: string | null;
    publicUrlError: string | null;
    publicUrlExpiresAt: number | null;
  } | null;
}

export interface VideoJob {
  id: string;
  team: string;
  kind: VideoKind;
  /** The model's id (not the alias it was asked by). */
  model: string;
  /** Sandbox-clock ms. */
  createdMs: number;
  readyAtMs: number;
  /** Seconds of video and its resolution (for the price). */
  duration: number;
  resolution: VideoResolution;
  costTicks: number;
  plan: ScenePlan;
  /** The key of the bytes in VideoMedia (the plan's hash). */
  mediaKey: string;
  /** The secret part of the result's URL `/media/videos/<token>.mp4`. */
  token: string;
  urlExpiresAtMs: number;
  /** Done without a video (moderation, spec Errors 6). */
  moderated: boolean;
  /** Fails (at `failAtMs`) with this, instead of finishing. */
  failure: { code: VideoErrorCode; message: string } | null;
  failAtMs: number | null;
  uploadUrl: string | null;
  storage: StorageRequest | null;
  delivery: Delivery | null;
}

/** Whether the job still has to upload or store its result. */
export function awaitsDelivery(job: VideoJob): boolean {
  return job.delivery === null && (job.uploadUrl !== null || job.storage !== null);
}

export class VideoJobStore {
  private readonly jobs = new Map<string, VideoJob>();
  private readonly tokens = new Map<string, string>();
  /** Plans of made videos by the sha256 of their bytes. */
  private readonly made = new Map<string, ScenePlan>();
  private readonly maxEntries: number;
  /** Called after every change worth saving; `created` when the client was handed a new id. */
  onChange: (created?: boolean) => void = () => undefined;

  constructor(maxEntries = 10_000) {
    this.maxEntries = maxEntries;
  }

  add(job: VideoJob): void {
    if (this.jobs.size >= this.maxEntries) this.drop(this.jobs.keys().next().value as string);
    this.jobs.set(job.id, job);
    this.tokens.set(job.token, job.id);
    this.onChange(true);
  }

  /** The team's job; another team's is unknown. */
  get(id: string, team: string): VideoJob | undefined {
    const job = this.jobs.get(id);
    return job && job.team === team ? job : undefined;
  }

  byToken(token: string): VideoJob | undefined {
    const id = this.tokens.get(token);
    return id === undefined ? undefined : this.jobs.get(id);
  }

  all(): IterableIterator<VideoJob> {
    return this.jobs.values();
  }

  /** A change to a job (its delivery, a failure found later). */
  changed(): void {
    this.onChange();
  }

  /** Remembers that bytes with this hash were made from `plan`. */
  rememberMade(hash: string, plan: ScenePlan): void {
    if (this.made.has(hash)) return;
    if (this.made.size >= this.maxEntries) this.made.delete(this.made.keys().next().value as string);
    this.made.set(hash, plan);
    this.onChange();
  }

  madeFrom(hash: string): ScenePlan | undefined {
    return this.made.get(hash);
  }

  /** The plan keys and picture keys the kept jobs and made videos still need (for VideoMedia.sweep). */
  liveKeys(nowMs: number): { videos: Set<string>; sources: Set<string> } {
    const videos = new Set<string>();
    const sources = new Set<string>();
    const addSources = (plan: ScenePlan): void => {
      if (plan.background) sources.add(plan.background.key);
      for (const t of plan.tiles) sources.add(t.key);
    };
    for (const job of this.jobs.values()) {
      addSources(job.plan);
      if (job.moderated || job.failure) continue;
      // The bytes are needed until the URL expires and until the result is stored.
      if (nowMs < job.urlExpiresAtMs || awaitsDelivery(job)) videos.add(job.mediaKey);
    }
    for (const plan of this.made.values()) addSources(plan);
    return { videos, sources };
  }

  snapshot(): unknown {
    return { jobs: [...this.jobs.values()], made: [...this.made].map(([hash, plan]) => ({ hash, plan })) };
  }

  /** Replaces the contents with a snapshot() read back; throws on a malformed one. */
  restore(data: unknown): void {
    const root = obj(data, 'videos snapshot');
    const jobs = list(root.jobs, 'jobs').map(readJob);
    const made = list(root.made, 'made').map((v) => {
      const m = obj(v, 'made entry');
      return [str(m, 'hash'), readPlan(m.plan)] as const;
    });
    this.clear();
    for (const job of jobs) {
      this.jobs.set(job.id, job);
      this.tokens.set(job.token, job.id);
    }
    for (const [hash, plan] of made) this.made.set(hash, plan);
  }

  clear(): void {
    this.jobs.clear();
    this.tokens.clear();
    this.made.clear();
  }

  private drop(id: string): void {
    const job = this.jobs.get(id);
    if (!job) return;
    this.jobs.delete(id);
    this.tokens.delete(job.token);
  }
}

const KINDS = ['generation', 'edit', 'extension'];
const RESOLUTIONS = ['480p', '720p', '1080p'];

function oneOf<T extends string>(o: Record<string, unknown>, key: string, allowed: readonly string[]): T {
  const v = str(o, key);
  if (!allowed.includes(v)) throw new Error(`${key} is not one of ${allowed.join(', ')}`);
  return v as T;
}

function bool(o: Record<string, unknown>, key: string): boolean {
  if (typeof o[key] !== 'boolean') throw new Error(`${key} is not a boolean`);
  return o[key] as boolean;
}

function rgb(v: unknown): [number, number, number] {
  const a = list(v, 'colour');
  if (a.length !== 3 || !a.every((x) => typeof x === 'number')) throw new Error('a colour is not three numbers');
  return a as [number, number, number];
}

function readPicture(v: unknown): { key: string; mime: string } {
  const p = obj(v, 'picture');
  return { key: str(p, 'key'), mime: str(p, 'mime') };
}

/** A plan read back: checked field by field, since the worker draws from it. */
export function readPlan(v: unknown): ScenePlan {
  const p = obj(v, 'plan');
  return {
    width: num(p, 'width'),
    height: num(p, 'height'),
    fps: num(p, 'fps'),
    frames: num(p, 'frames'),
    startFrame: num(p, 'startFrame'),
    seed: num(p, 'seed'),
    colors: list(p.colors, 'colors').map(rgb),
    background: p.background === null ? null : readPicture(p.background),
    tiles: list(p.tiles, 'tiles').map(readPicture),
    voices: list(p.voices, 'voices').map((x) => {
      if (typeof x !== 'number') throw new Error('a voice seed is not a number');
      return x;
    }),
    layers: list(p.layers, 'layers').map((x) => {
      const l = obj(x, 'layer');
      return { kind: oneOf<'edit' | 'extend'>(l, 'kind', ['edit', 'extend']), seed: num(l, 'seed'), color: rgb(l.color), fromFrame: num(l, 'fromFrame') };
    }),
  };
}

function readStorage(v: unknown): StorageRequest | null {
  if (v === null) return null;
  const s = obj(v, 'storage');
  const pu = s.publicUrl === null ? null : obj(s.publicUrl, 'publicUrl');
  return { filename: str(s, 'filename'), expiresAfter: numOrNull(s, 'expiresAfter'), publicUrl: pu && { expiresAfter: numOrNull(pu, 'expiresAfter') } };
}

function readDelivery(v: unknown): Delivery | null {
  if (v === null) return null;
  const d = obj(v, 'delivery');
  const f = d.file === null ? null : obj(d.file, 'file');
  return {
    storageError: strOrNull(d, 'storageError'),
    file: f && {
      fileId: str(f, 'fileId'),
      filename: str(f, 'filename'),
      expiresAt: numOrNull(f, 'expiresAt'),
      publicPath: strOrNull(f, 'publicPath'),
      publicUrlError: strOrNull(f, 'publicUrlError'),
      publicUrlExpiresAt: numOrNull(f, 'publicUrlExpiresAt'),
    },
  };
}

function readJob(v: unknown): VideoJob {
  const j = obj(v, 'job');
  const failure = j.failure === null ? null : obj(j.failure, 'failure');
  return {
    id: str(j, 'id'),
    team: str(j, 'team'),
    kind: oneOf<VideoKind>(j, 'kind', KINDS),
    model: str(j, 'model'),
    createdMs: num(j, 'createdMs'),
    readyAtMs: num(j, 'readyAtMs'),
    duration: num(j, 'duration'),
    resolution: oneOf<VideoResolution>(j, 'resolution', RESOLUTIONS),
    costTicks: num(j, 'costTicks'),
    plan: readPlan(j.plan),
    mediaKey: str(j, 'mediaKey'),
    token: str(j, 'token'),
    urlExpiresAtMs: num(j, 'urlExpiresAtMs'),
    moderated: bool(j, 'moderated'),
    failure: failure && { code: str(failure, 'code') as VideoErrorCode, message: str(failure, 'message') },
    failAtMs: numOrNull(j, 'failAtMs'),
    uploadUrl: strOrNull(j, 'uploadUrl'),
    storage: readStorage(j.storage),
    delivery: readDelivery(j.delivery),
  };
}
