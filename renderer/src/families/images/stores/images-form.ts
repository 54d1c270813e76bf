/**
 * The Images playground's form: prompt, model, n, aspect ratio, resolution, response format,
 * user, and the input images. With inputs it is an edit (one image, or several referred to as
 * `<IMAGE_0>`, ...), without a generation. Kept as a draft (with the last run's id, so a reload
 * shows that result again).
 */
import { defineStore, storeToRefs } from 'pinia';
import { computed, ref } from 'vue';
import { ImageEditSchema, ImageGenerateSchema, type ImageEditInput, type ImageGenerateInput, type MediaSource } from '@shared/families/images/contract';
import type { GalleryItem } from '@shared/contract/gallery';
import { IMAGE_ASPECT_RATIOS, IMAGE_LIMITS, IMAGE_RESOLUTIONS, IMAGE_RESPONSE_FORMATS, type ImageAspectRatio, type ImageResolution, type ImageInput, type ImageResponseFormat } from '@shared/wire/images';
import { schemaIssues } from '../../../lib/form-violations';
import { useFormViolations } from '../../../composables/use-form-violations';
import { useDraft } from '../../../composables/use-draft';
import { savedString } from '../../../lib/draft-fields';
import { estimateTicks, imageModels, imageRef, insertAt, maxPromptLength } from '../../../lib/image-inputs';
import { useModelsStore } from '../../../stores/models';

/** One input image of an edit: where main reads it from, and what the page shows for it. */
export interface ImageInputItem {
  source: MediaSource;
  /** The file's name, the Files id, or the gallery item's name. */
  label: string;
  /**
   * What the page shows: a blob: URL of a file just given (then a small data: URL made from it,
   * kept in the draft), or a gallery item's media URL (asked for again after a restore: its token
   * dies with the process); none for a Files id.
   */
  previewUrl: string | null;
}

export type ImagesMode = 'generate' | 'edit';

const pick = <T extends string>(list: readonly T[], v: unknown, fallback: T): T => (list.includes(v as T) ? (v as T) : fallback);

/**
 * Kept inputs. Only a data: preview outlives the page: a blob: URL dies with the page that made
 * it and a media URL's token with the process, so those are dropped (the view asks the gallery
 * for its items' URLs again).
 */
function savedInputs(v: unknown): ImageInputItem[] {
  if (!Array.isArray(v)) return [];
  return v
    .filter((i): i is ImageInputItem => !!i && typeof i === 'object' && typeof (i as ImageInputItem).label === 'string' && !!(i as ImageInputItem).source)
    .slice(0, IMAGE_LIMITS.maxReferenceImages)
    .map((i) => ({ ...i, previewUrl: typeof i.previewUrl === 'string' && i.previewUrl.startsWith('data:image/') ? i.previewUrl : null }));
}

const sameSource = (a: MediaSource, b: MediaSource): boolean => JSON.stringify(a) === JSON.stringify(b);

function releasePreview(item: ImageInputItem | undefined): void {
  if (item?.previewUrl?.startsWith('blob:')) URL.revokeObjectURL(item.previewUrl);
}

/** The input images of a recorded edit body (`image` or `images`), as the form's inputs. */
function sentInputs(body: Record<string, unknown>): ImageInputItem[] {
  const sent = Array.isArray(body.images) ? (body.images as ImageInput[]) : body.image ? [body.image as ImageInput] : [];
  return sent.flatMap((input, i): ImageInputItem[] => {
    const url = input.url ?? input.image_url;
    // A data: URL is its own preview; a remote one is not fetched by the page.
    if (typeof url === 'string' && url) return [{ source: { kind: 'url', url }, label: url.startsWith('data:') ? `image ${i + 1}` : url, previewUrl: url.startsWith('data:') ? url : null }];
    if (typeof input.file_id === 'string' && input.file_id) return [{ source: { kind: 'file', fileId: input.file_id }, label: input.file_id, previewUrl: null }];
    return [];
  });
}

export const useImagesFormStore = defineStore('images-form', () => {
  const model = ref('');
  const prompt = ref('');
  const n = ref<number>(IMAGE_LIMITS.nDefault);
  const aspectRatio = ref<ImageAspectRatio>('auto');
  const resolution = ref<ImageResolution>('1k');
  const responseFormat = ref<ImageResponseFormat>('url');
  const user = ref('');
  const inputs = ref<ImageInputItem[]>([]);
  /** The run whose result the view shows (kept so a reload shows it again). */
  const lastRunId = ref<string | null>(null);
  /** What the last change of the inputs said ("… is now the input", what was refused); not kept: New clears it. */
  const inputNote = ref<{ text: string; error: boolean } | null>(null);

  const { rows } = storeToRefs(useModelsStore());
  const models = computed(() => imageModels(rows.value));
  const modelRow = computed(() => rows.value.find((r) => r.id === model.value));
  const promptLimit = computed(() => maxPromptLength(modelRow.value));
  const mode = computed<ImagesMode>(() => (inputs.value.length > 0 ? 'edit' : 'generate'));
  /** Aspect ratio is sent on generations and multi-image edits only (the service refuses it on a one-image edit). */
  const aspectRatioEnabled = computed(() => inputs.value.length !== 1);
  const aspectRatioNote = computed(() =>
    aspectRatioEnabled.value ? null : 'An edit of one image keeps that image’s shape: aspect ratio applies to generations and multi-image edits only.',
  );
  const estimateTicksValue = computed(() => estimateTicks(modelRow.value, n.value));

  const request = computed<ImageGenerateInput | ImageEditInput>(() => {
    const common = {
      model: model.value,
      prompt: prompt.value,
      n: n.value,
      resolution: resolution.value,
      responseFormat: responseFormat.value,
      ...(user.value.trim() ? { user: user.value.trim() } : {}),
    };
    if (mode.value === 'generate') return { ...common, aspectRatio: aspectRatio.value };
    return { ...common, images: inputs.value.map((i) => i.source), ...(inputs.value.length > 1 ? { aspectRatio: aspectRatio.value } : {}) };
  });

  const form = useFormViolations(() => [
    prompt.value.trim() ? [] : [{ field: 'prompt', message: 'write a prompt' }],
    prompt.value.length > promptLimit.value
      ? [{ field: 'prompt', message: `the prompt is ${prompt.value.length.toLocaleString('en-US')} characters; ${model.value || 'this model'} takes at most ${promptLimit.value.toLocaleString('en-US')}` }]
      : [],
    inputs.value.length > IMAGE_LIMITS.maxReferenceImages ? [{ field: 'images', message: `an edit takes at most ${IMAGE_LIMITS.maxReferenceImages} images` }] : [],
    user.value.length > 256 ? [{ field: 'user', message: 'user is at most 256 characters' }] : [],
    schemaIssues(mode.value === 'generate' ? ImageGenerateSchema : ImageEditSchema, request.value),
  ]);

  function addInput(item: ImageInputItem): string | null {
    if (inputs.value.length >= IMAGE_LIMITS.maxReferenceImages) return `An edit takes at most ${IMAGE_LIMITS.maxReferenceImages} images; remove one first.`;
    inputs.value = [...inputs.value, item];
    return null;
  }

  function removeInput(i: number): void {
    releasePreview(inputs.value[i]);
    inputs.value = inputs.value.filter((_, k) => k !== i);
  }

  /** Shows `previewUrl` for the inputs read from `source` (a kept preview made, a fresh gallery URL). */
  function setPreview(source: MediaSource, previewUrl: string): void {
    if (!inputs.value.some((i) => sameSource(i.source, source))) return;
    inputs.value = inputs.value.map((i) => {
      // The URL it had is its maker's to revoke (a blob: URL may be shown elsewhere too).
      return sameSource(i.source, source) ? { ...i, previewUrl } : i;
    });
  }

  /** Puts gallery item `item` as the (only) input: "Edit this". */
  function editItem(item: GalleryItem): void {
    inputs.value.forEach(releasePreview);
    inputs.value = [{ source: { kind: 'gallery', id: item.id }, label: item.name, previewUrl: item.url.url }];
  }

  /** Inserts input `i`'s `<IMAGE_i>` reference at `caret` (the end when null); returns where the caret goes. */
  function insertRef(i: number, caret: number | null): number {
    const next = insertAt(prompt.value, imageRef(i), caret);
    prompt.value = next.text;
    return next.caret;
  }

  /**
   * Fills the form from a recorded request's wire body ("Open in playground" from History) and
   * shows that run's result: its images are in the gallery already. Inputs the body sent as URLs
   * (data URLs included) or Files ids come back as such.
   */
  function loadRequest(body: unknown, runId: string): void {
    const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    model.value = typeof b.model === 'string' ? b.model : model.value;
    prompt.value = typeof b.prompt === 'string' ? b.prompt : '';
    n.value = typeof b.n === 'number' && Number.isInteger(b.n) ? b.n : IMAGE_LIMITS.nDefault;
    aspectRatio.value = pick(IMAGE_ASPECT_RATIOS, b.aspect_ratio, 'auto');
    resolution.value = pick(IMAGE_RESOLUTIONS, b.resolution, '1k');
    responseFormat.value = pick(IMAGE_RESPONSE_FORMATS, b.response_format, 'url');
    user.value = typeof b.user === 'string' ? b.user : '';
    inputs.value.forEach(releasePreview);
    inputs.value = sentInputs(b);
    lastRunId.value = runId;
    inputNote.value = null;
  }

  const draft = useDraft(
    'images',
    () => ({
      model: model.value, prompt: prompt.value, n: n.value, aspectRatio: aspectRatio.value, resolution: resolution.value,
      responseFormat: responseFormat.value, user: user.value, inputs: inputs.value, lastRunId: lastRunId.value,
    }),
    (saved) => {
      if (saved) model.value = savedString(saved, 'model');
      prompt.value = saved ? savedString(saved, 'prompt') : '';
      const savedN = Number(saved?.n);
      n.value = Number.isInteger(savedN) && savedN >= IMAGE_LIMITS.nMin && savedN <= IMAGE_LIMITS.nMax ? savedN : IMAGE_LIMITS.nDefault;
      aspectRatio.value = pick(IMAGE_ASPECT_RATIOS, saved?.aspectRatio, 'auto');
      resolution.value = pick(IMAGE_RESOLUTIONS, saved?.resolution, '1k');
      responseFormat.value = pick(IMAGE_RESPONSE_FORMATS, saved?.responseFormat, 'url');
      user.value = saved ? savedString(saved, 'user') : '';
      inputs.value = savedInputs(saved?.inputs);
      lastRunId.value = typeof saved?.lastRunId === 'string' ? saved.lastRunId : null;
      // New, Undo or a restore: a note about the inputs that were there is about another form.
      inputNote.value = null;
    },
  );

  return {
    draft, model, prompt, n, aspectRatio, resolution, responseFormat, user, inputs, lastRunId, inputNote,
    models, modelRow, promptLimit, mode, aspectRatioEnabled, aspectRatioNote, estimateTicks: estimateTicksValue, request,
    violations: form.violations, blockedReason: form.blockedReason, violationsFor: form.violationsFor,
    addInput, removeInput, editItem, insertRef, setPreview, loadRequest,
  };
});
