/**
 * The video job centre's form, kept as a draft: mode, model, prompt, inputs, size, duration per
 * mode, output and storage; what blocks sending (every rule said before anything is sent); and
 * the ways it is filled from elsewhere: a finished job's Extend or Edit, a refused job's request
 * (Edit and resend), and the route's query
 * (`?image=`, `?edit=`, `?extend=`, `?file=`, `?ref=&as=`).
 */
import { defineStore, storeToRefs } from 'pinia';
import { computed, ref } from 'vue';
import type { MediaSource } from '@shared/families/images/contract';
import type { VideoCreateInput, VideoJob, VideoMode } from '@shared/families/videos/contract';
import { VIDEO_ASPECT_RATIOS, VIDEO_RESOLUTIONS } from '@shared/wire/videos';
import { isObject } from '@shared/is-object';
import { useDraft, type DraftState } from '../../../composables/use-draft';
import { useFormViolations } from '../../../composables/use-form-violations';
import { overDefaults, savedString } from '../../../lib/draft-fields';
import { buildVideoCreate, defaultVideoForm, videoFormViolations, type MediaChip, type VideoForm, type VideoStorageForm } from '../../../lib/video-form';
import { useModelsStore } from '../../../stores/models';
import { useRequestHeadersStore } from '../../../stores/request-headers';

const MODES: readonly VideoMode[] = ['generate', 'edit', 'extend'];

function isChip(value: unknown): value is MediaChip {
  return isObject(value) && isObject(value.source) && typeof value.source.kind === 'string' && typeof value.label === 'string';
}

/** A kept form back, each field only when it still has the shape this build expects. */
function formFromSaved(saved: DraftState): VideoForm {
  const base = defaultVideoForm(savedString(saved, 'model'));
  const oneOf = <T extends string>(list: readonly T[], value: unknown): T | null => (list.includes(value as T) ? (value as T) : null);
  const chips = (value: unknown): MediaChip[] => (Array.isArray(value) ? value.filter(isChip) : []);
  const durations = overDefaults(base.durations, saved.durations);
  return {
    ...base,
    mode: oneOf(MODES, saved.mode) ?? 'generate',
    prompt: savedString(saved, 'prompt'),
    image: isChip(saved.image) ? saved.image : null,
    referenceImages: chips(saved.referenceImages),
    referenceAudios: Array.isArray(saved.referenceAudios) ? saved.referenceAudios.filter((v): v is string => typeof v === 'string') : [],
    video: isChip(saved.video) ? saved.video : null,
    aspectRatio: oneOf(VIDEO_ASPECT_RATIOS, saved.aspectRatio),
    resolution: oneOf(VIDEO_RESOLUTIONS, saved.resolution),
    durations: { generate: typeof durations.generate === 'number' ? durations.generate : null, extend: typeof durations.extend === 'number' ? durations.extend : null },
    uploadUrl: savedString(saved, 'uploadUrl'),
    storage: overDefaults(base.storage, saved.storage),
  };
}

/** An input of a recorded request as a chip, named as the job's card names it ("image: cat.png"). */
function chipOf(source: MediaSource, kind: 'image' | 'video', label: string | undefined): MediaChip {
  const named = label?.replace(/^(image|video):\s*/, '').trim();
  const fallback = source.kind === 'file' ? `file ${source.fileId}` : source.kind === 'url' ? source.url.slice(0, 80) : `${kind} from the job`;
  return { source, label: named || fallback, kind, mime: '' };
}

/** The storage part of the form from a request's `storage` (an expiry in whole days when it is one). */
function storageOf(storage: VideoCreateInput['storage'], base: VideoStorageForm): VideoStorageForm {
  if (!storage) return base;
  const seconds = storage.expiresAfter ?? null;
  const inDays = seconds !== null && seconds % 86_400 === 0;
  return {
    enabled: true,
    filename: storage.filename,
    expiresIn: seconds === null ? null : inDays ? seconds / 86_400 : Math.round((seconds / 3600) * 100) / 100,
    expiresUnit: inDays || seconds === null ? 'days' : 'hours',
    publicUrl: storage.publicUrl ?? false,
  };
}

/**
 * The form a job's request was sent from, for Edit and resend. A job made before the app kept its
 * request gives back what its card shows (the inputs must be chosen again).
 */
export function formFromJob(job: VideoJob, base: VideoForm): { form: VideoForm; complete: boolean } {
  const r = job.request;
  const durations = { ...base.durations };
  const duration = r ? (r.duration ?? null) : job.duration;
  if (job.mode !== 'edit') durations[job.mode] = duration;
  const form: VideoForm = {
    ...base,
    mode: job.mode,
    model: r?.model ?? job.model,
    prompt: r?.prompt ?? job.prompt,
    aspectRatio: (r ? r.aspectRatio : job.aspectRatio) as VideoForm['aspectRatio'] ?? null,
    resolution: (r ? r.resolution : job.resolution) as VideoForm['resolution'] ?? null,
    durations,
    image: null,
    referenceImages: [],
    referenceAudios: [],
    video: null,
  };
  if (!r) return { form, complete: job.inputs.length === 0 };
  // The card's input labels come in the order the request was resolved: image, references, video.
  const labels = [...job.inputs];
  if (r.image) form.image = chipOf(r.image, 'image', labels.shift());
  form.referenceImages = (r.referenceImages ?? []).map((source) => chipOf(source, 'image', labels.shift()));
  form.referenceAudios = [...(r.referenceAudios ?? [])];
  if (r.video) form.video = chipOf(r.video, 'video', labels.find((l) => l.startsWith('video:')));
  form.uploadUrl = r.output?.uploadUrl ?? '';
  form.storage = storageOf(r.storage, base.storage);
  return { form, complete: true };
}

export const useVideoFormStore = defineStore('video-form', () => {
  const form = ref<VideoForm>(defaultVideoForm());
  const models = useModelsStore();
  const { rows } = storeToRefs(models);

  const videoModels = computed(() => rows.value.filter((r) => r.kind === 'video'));
  const modelInfo = computed(() => videoModels.value.find((r) => r.id === form.value.model || r.aliases.includes(form.value.model)));
  // The extra request headers (their own draft) go with the create; their problems block it like the form's.
  const headers = useRequestHeadersStore();
  const request = computed(() => ({ ...buildVideoCreate(form.value), ...headers.sendPart('videos') }));
  const { violations, blockedReason, violationsFor } = useFormViolations(() => [videoFormViolations(form.value, modelInfo.value), headers.violations('videos')], 'videos');

  const draft = useDraft('videos', () => form.value, (saved) => {
    // New keeps the model: it is rarely what the user wants to choose again.
    form.value = saved ? formFromSaved(saved) : defaultVideoForm(form.value.model);
  });

  /** Fills the form (Undo brings back what was there) and says where it came from. */
  function fill(change: Partial<VideoForm>, message: string): void {
    draft.replaceWith(() => {
      form.value = { ...form.value, ...change };
    }, message);
  }

  /** A finished job's Extend or Edit: its video becomes the input, the prompt is left to write. */
  function continueFrom(job: VideoJob, mode: 'extend' | 'edit'): void {
    if (!job.video) return;
    const chip: MediaChip = { source: { kind: 'gallery', id: job.video.id }, label: job.video.name || 'Video from the job', kind: 'video', mime: job.video.mime };
    fill({ mode, video: chip, prompt: '', model: form.value.model || job.model }, mode === 'extend' ? 'Form set to extend that video.' : 'Form set to edit that video.');
  }

  /** Edit and resend: the refused job's request back in the form, to change what was refused. */
  function resendFrom(job: VideoJob): void {
    const { form: next, complete } = formFromJob(job, defaultVideoForm(form.value.model));
    fill(next, complete ? 'Form set to that request: change what the service refused, then Create.' : 'Form set to that request; its inputs were not kept: choose them again.');
  }

  /** A chip from an arrival link (lib/video-query.ts) in its mode's place. */
  function startFrom(mode: VideoMode, chip: MediaChip, message: string): void {
    fill(mode === 'generate' ? { mode, image: chip } : { mode, video: chip }, message);
  }

  /** Puts an input where the mode takes it: a video makes an edit (unless extending), an image the image to animate (else a reference). */
  function addInput(chip: MediaChip): string | null {
    if (chip.kind === 'video') {
      const switched = form.value.mode === 'generate';
      form.value = { ...form.value, video: chip, mode: switched ? 'edit' : form.value.mode };
      return switched ? 'A video is edited or extended: the form is now an Edit (choose Extend to continue it instead).' : null;
    }
    if (form.value.mode !== 'generate') {
      form.value = { ...form.value, mode: 'generate', image: chip };
      return 'An image makes a new video: the form is now a Generate.';
    }
    if (!form.value.image) form.value = { ...form.value, image: chip };
    else form.value = { ...form.value, referenceImages: [...form.value.referenceImages, chip] };
    return null;
  }

  return { form, draft, videoModels, modelInfo, request, violations, blockedReason, violationsFor, fill, continueFrom, resendFrom, startFrom, addInput };
});
