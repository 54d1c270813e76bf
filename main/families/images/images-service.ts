/**
 * Image generation and editing. Each request is a History run recorded before it leaves (edit
 * inputs moved to the blob store, so a run row never holds megabytes of base64); the answer's
 * images are then kept at once (its URLs expire): downloaded, or decoded from `b64_json`, each
 * into the gallery only with all of its bytes. A cancel aborts what is under way and records the
 * run cancelled; a service error records it failed with the service's words; an image that cannot
 * be kept is named, and the ones that arrived stay.
 */
import * as imagesApi from '../../api/images';
import { toWorkbenchError, type ApiError } from '../../api/errors';
import type { SecretScrubber } from '../../api/secret-scrubber';
import { WorkbenchFailure, type WorkbenchError } from '../../../shared/contract/errors';
import type { GalleryItem } from '../../../shared/contract/gallery';
import type { ImageEditSchema, ImageGenerateSchema, ImageRunChunk, ImageRunResult, MediaSource } from '../../../shared/families/images/contract';
import type { CapturedResponse, Endpoint } from '../../../shared/contract/runs';
import type { ImageEditRequest, ImageGenerationRequest, ImageInput, ImageResult } from '../../../shared/wire/images';
import type { z } from 'zod';
import type { BlobStore } from '../../store/blobs';
import type { Db } from '../../store/db';
import { getFileById } from '../../store/files';
import { getRun, type RunUpdate } from '../../store/runs';
import { TICKS_PER_CENT } from '../../../shared/cost';
import type { ResolvedConnection } from '../../services/connections-service';
import type { GalleryService } from '../../services/gallery-service';
import type { ModelsService } from '../../services/models-service';
import { nameFromPrompt } from '../../services/gallery-service';
import { imageRunPreview, imageRunText, readImageRunOutput, recordedAnswer, type ImageRunOutput, type RecordedImage } from './image-run-record';
import { probeBytes } from '../../services/media-probe';
import { IMAGE_INPUT, keepInputs, resolveMediaSources, type ResolvedMediaSource } from '../../services/media-sources';
import { storeRequestMedia } from '../../services/request-media';
import { newRunId, RunRecorder } from '../../services/run-recorder';
import type { ResolvedFile } from '../../services/user-files';

type GenerateInput = z.output<typeof ImageGenerateSchema>;
type EditInput = z.output<typeof ImageEditSchema>;

export interface ImageRunContext {
  signal: AbortSignal;
  emit(chunk: ImageRunChunk): void;
}

export interface ImagesServiceDeps {
  db: Db;
  blobs: BlobStore;
  connections: { resolve(id?: string): ResolvedConnection };
  gallery: GalleryService;
  userFiles: { resolve(ref: string): ResolvedFile };
  /** The catalogue: a cost from the model's `image_price` when the answer has no `usage`. */
  models?: Pick<ModelsService, 'cachedEntry'>;
  /** The api functions (tests put a fake download in). */
  api?: Pick<typeof imagesApi, 'createImages' | 'downloadImage'>;
  /** Largest produced image kept (default 64 MB). */
  maxImageBytes?: number;
  now?: () => number;
}

const DEFAULT_MAX_IMAGE_BYTES = 64 * 1024 * 1024;

export class ImagesService {
  private readonly api: Pick<typeof imagesApi, 'createImages' | 'downloadImage'>;
  private readonly now: () => number;

  constructor(private readonly deps: ImagesServiceDeps) {
    this.api = deps.api ?? imagesApi;
    this.now = deps.now ?? Date.now;
  }

  /** `POST /v1/images/generations`, then every image kept in the gallery. */
  generate(input: GenerateInput, ctx: ImageRunContext): Promise<ImageRunResult> {
    const body: ImageGenerationRequest = { ...this.common(input), aspect_ratio: input.aspectRatio };
    return this.run('generate', input, body, [], ctx);
  }

  /** `POST /v1/images/edits` with one image (`image`) or several (`images`, and `aspect_ratio` only then). */
  async edit(input: EditInput, ctx: ImageRunContext): Promise<ImageRunResult> {
    const connection = this.deps.connections.resolve(input.connectionId);
    const sources = await resolveMediaSources(
      {
        userFiles: this.deps.userFiles,
        gallery: this.deps.gallery,
        blobs: this.deps.blobs,
        fileRecord: (fileId) => getFileById(this.deps.db, connection.profile.id, fileId, this.now()),
      },
      input.images,
      { accept: IMAGE_INPUT, purpose: 'edits', field: (i) => (input.images.length === 1 ? 'image' : `images[${i}]`) },
    );
    const wire = sources.map((s): ImageInput => s.wire);
    const body: ImageEditRequest = { ...this.common(input), ...(wire.length === 1 ? { image: wire[0] } : { images: wire }) };
    if (wire.length > 1 && input.aspectRatio !== undefined) body.aspect_ratio = input.aspectRatio;
    return this.run('edit', input, body, sources, ctx, input.images);
  }

  /** The result of run `runId` again, from History and the gallery (items deleted since are left out). */
  async ofRun({ runId }: { runId: string }): Promise<ImageRunResult | null> {
    const run = getRun(this.deps.db, runId);
    if (!run || (run.endpoint !== 'images.generations' && run.endpoint !== 'images.edits')) return null;
    const output = readImageRunOutput(run.output);
    const items = async (ids: string[]): Promise<GalleryItem[]> => {
      const out: GalleryItem[] = [];
      for (const id of ids) {
        const row = this.deps.gallery.row(id);
        if (row) out.push(await this.deps.gallery.toItem(row));
      }
      return out;
    };
    return {
      runId,
      images: await items(output?.images.map((i) => i.galleryId) ?? []),
      inputs: await items(output?.inputs ?? []),
      costTicks: run.costTicks,
      durationMs: run.timings.totalMs ?? 0,
    };
  }

  private common(input: GenerateInput | EditInput): ImageGenerationRequest {
    return {
      model: input.model,
      prompt: input.prompt,
      n: input.n,
      response_format: input.responseFormat,
      resolution: input.resolution,
      ...(input.user !== undefined ? { user: input.user } : {}),
    };
  }

  private async run(
    kind: imagesApi.ImageCallKind,
    input: GenerateInput | EditInput,
    body: ImageGenerationRequest | ImageEditRequest,
    sources: ResolvedMediaSource[],
    ctx: ImageRunContext,
    given: readonly MediaSource[] = [],
  ): Promise<ImageRunResult> {
    const connection = this.deps.connections.resolve(input.connectionId);
    const endpoint: Endpoint = kind === 'generate' ? 'images.generations' : 'images.edits';
    const startedAt = this.now();
    const request = connection.client.describe({ method: 'POST', path: imagesApi.IMAGE_PATHS[kind], body, headers: input.headers });
    const recorded = await storeRequestMedia(this.deps.blobs, request);
    const recorder = RunRecorder.start(this.deps.db, {
      id: newRunId(),
      createdAt: startedAt,
      endpoint,
      model: input.model,
      connectionId: connection.profile.id,
      connectionName: connection.profile.name,
      isSandbox: connection.isSandbox,
      request: recorded.request,
      blobs: recorded.blobs,
      promptText: input.prompt,
      promptPreview: input.prompt,
      status: 'pending',
    });
    const runId = recorder.id;
    ctx.emit({ type: 'started', runId });
    const state = { finished: false };
    try {
      return await this.send(kind, input, body, sources, ctx, given, { connection, recorder, startedAt, state });
    } catch (error) {
      // Whatever went wrong here (the store, a bug), the run does not stay pending.
      if (!state.finished) {
        const failure = error instanceof WorkbenchFailure ? error.error : { code: 'internal' as const, message: error instanceof Error ? error.message : String(error) };
        recorder.finish({ status: 'error', error: failure, timings: { startedAt, ttfbMs: null, totalMs: this.now() - startedAt } });
      }
      throw error;
    }
  }

  private async send(
    kind: imagesApi.ImageCallKind,
    input: GenerateInput | EditInput,
    body: ImageGenerationRequest | ImageEditRequest,
    sources: ResolvedMediaSource[],
    ctx: ImageRunContext,
    given: readonly MediaSource[],
    run: { connection: ResolvedConnection; recorder: RunRecorder; startedAt: number; state: { finished: boolean } },
  ): Promise<ImageRunResult> {
    const { connection, recorder, startedAt } = run;
    const runId = recorder.id;
    const { scrubber } = connection.client;
    const finish = (update: RunUpdate): void => {
      run.state.finished = true;
      // What the run keeps was scrubbed by the client; once more, as every record is.
      recorder.finish(scrubber.value(update));
    };
    // Every image sent from here is in the gallery, whatever the service answers.
    const inputs = await keepInputs(this.deps.gallery, sources, { runId, kind: 'image' });

    // What is kept so far is in the run as it goes, so `ofRun` after a reload shows it.
    const output: ImageRunOutput = { object: 'image.run', images: [], inputs: inputs.map((i) => i.id), failed: [], answered: 0, costTicks: null };
    if (inputs.length > 0) recorder.update({ output: { ...output }, outputPreview: 'Sending…' });
    ctx.emit({ type: 'sent' });
    const result = await this.api.createImages(connection.client, kind, body, { signal: ctx.signal, headers: input.headers });
    const timings = (): { startedAt: number; ttfbMs: number | null; totalMs: number } => ({ startedAt, ttfbMs: result.meta?.ttfbMs ?? null, totalMs: this.now() - startedAt });

    if (!result.ok) {
      const cancelled = result.error.kind === 'cancelled' || ctx.signal.aborted;
      const error = cancelled ? null : explain(result.error, given);
      const response: CapturedResponse | null = result.meta ? { status: result.meta.status, headers: result.meta.headers, body: result.error.body ?? null } : null;
      finish({ status: cancelled ? 'cancelled' : 'error', response, output: { ...output }, outputText: '', outputPreview: cancelled ? 'Cancelled before the service answered.' : '', error, timings: timings(), retries: result.retries });
      throw new WorkbenchFailure(error ?? { code: 'cancelled', message: 'The image request was cancelled; nothing was kept.' });
    }

    const answer = result.value;
    const costTicks = costOf(answer) ?? this.catalogueCost(connection, input.model, answer.data.length);
    output.answered = answer.data.length;
    output.costTicks = costTicks;
    const kept = new Map<number, RecordedImage>();
    const images: GalleryItem[] = [];
    for (const [index, datum] of answer.data.entries()) {
      if (ctx.signal.aborted) break;
      ctx.emit({ type: 'downloading', done: index, total: answer.data.length });
      // Fetched at the URL the service gave, not at its masked copy in `datum`.
      const bytes = await this.imageBytes(datum, result.urls?.[index] ?? datum.url, ctx.signal, scrubber);
      if (!bytes.ok) {
        if (ctx.signal.aborted) break;
        output.failed.push({ index, message: bytes.message });
        continue;
      }
      let item: GalleryItem;
      try {
        item = await this.deps.gallery.add({
        data: bytes.value,
        origin: kind === 'generate' ? 'generated' : 'edited',
        kind: 'image',
        prompt: input.prompt,
        revisedPrompt: typeof datum.revised_prompt === 'string' ? datum.revised_prompt : null,
        model: input.model,
        name: numberedName(input.prompt, bytes.mime, index, answer.data.length),
        runId,
        sourceIds: inputs.map((i) => i.id),
        });
      } catch (error) {
        // A full disk, say: this image is not kept, the others may be.
        output.failed.push({ index, message: error instanceof Error ? error.message : String(error) });
        continue;
      }
      images.push(item);
      const image: RecordedImage = { index, galleryId: item.id, hash: item.hash, mime: item.mime, bytes: item.bytes, width: item.width, height: item.height, revisedPrompt: item.revisedPrompt };
      kept.set(index, image);
      output.images.push(image);
      recorder.update({ output: { ...output }, outputPreview: imageRunPreview(output) });
    }
    if (!ctx.signal.aborted) ctx.emit({ type: 'downloading', done: answer.data.length, total: answer.data.length });

    const response: CapturedResponse = { status: result.meta.status, headers: result.meta.headers, body: recordedAnswer(answer, kept) };
    const base = { response, output: { ...output }, outputText: imageRunText(output), outputPreview: imageRunPreview(output), costTicks, timings: timings(), retries: result.retries };
    if (ctx.signal.aborted) {
      const message = `Cancelled while the images were being kept: ${images.length} of ${answer.data.length} are in the gallery.`;
      finish({ ...base, status: 'cancelled', outputPreview: message });
      throw new WorkbenchFailure({ code: 'cancelled', message });
    }
    if (output.failed.length > 0) {
      const error = keptPartly(output, result.meta.requestId);
      finish({ ...base, status: images.length > 0 ? 'incomplete' : 'error', error });
      throw new WorkbenchFailure(error);
    }
    finish({ ...base, status: 'completed' });
    return { runId, images, costTicks, inputs, durationMs: this.now() - startedAt };
  }

  /** Images x the model's `image_price` (cents per image), when the catalogue was fetched; else null. */
  private catalogueCost(connection: ResolvedConnection, model: string, images: number): number | null {
    const price = this.deps.models?.cachedEntry(connection.client, model)?.prices.image_price;
    return typeof price === 'number' && Number.isFinite(price) ? Math.round(images * price * TICKS_PER_CENT) : null;
  }

  /**
   * The bytes of one answered image: decoded, or downloaded from `url` (as the service gave it;
   * without the key), and checked to be an image. Messages have the key masked (`scrubber`).
   */
  private async imageBytes(
    datum: ImageResult['data'][number],
    url: string | undefined,
    signal: AbortSignal,
    scrubber: SecretScrubber,
  ): Promise<{ ok: true; value: Buffer; mime: string } | { ok: false; message: string }> {
    let bytes: Buffer;
    if (typeof datum.b64_json === 'string') {
      bytes = Buffer.from(datum.b64_json, 'base64');
    } else if (typeof url === 'string' && url !== '') {
      const got = await this.api.downloadImage(url, { signal, maxBytes: this.deps.maxImageBytes ?? DEFAULT_MAX_IMAGE_BYTES, scrubber });
      if (!got.ok) return { ok: false, message: got.error.message };
      bytes = got.value.bytes;
    } else {
      return { ok: false, message: 'the answer gave neither a url nor b64_json for it' };
    }
    const probe = bytes.length > 0 ? await probeBytes(bytes) : null;
    if (probe?.kind !== 'image') return { ok: false, message: `what came is ${probe ? `a ${probe.label}` : 'not an image'} (${bytes.length} bytes)` };
    return { ok: true, value: bytes, mime: probe.mime };
  }
}

function costOf(answer: ImageResult): number | null {
  const ticks = answer.usage?.cost_in_usd_ticks;
  return typeof ticks === 'number' && Number.isFinite(ticks) ? Math.round(ticks) : null;
}

/** `a-cat-in-a-tree.png`, or `a-cat-in-a-tree-2.png` for the second of several. */
function numberedName(prompt: string, mime: string, index: number, count: number): string {
  const name = nameFromPrompt(prompt, mime, 'image');
  return count > 1 ? name.replace(/(\.[a-z0-9]+)$/, `-${index + 1}$1`) : name;
}

/** The error of a run whose images were not all kept: which ones, why, and that the rest are in the gallery. */
function keptPartly(output: ImageRunOutput, requestId: string | null): WorkbenchError {
  const which = output.failed.map((f) => `image ${f.index + 1} of ${output.answered} (${f.message.replace(/^The /, 'the ').replace(/\.$/, '')})`).join('; ');
  const rest = output.images.length > 0 ? ` The other ${output.images.length === 1 ? 'image is' : `${output.images.length} images are`} in the gallery.` : ' Nothing was kept.';
  return { code: 'stream_incomplete', message: `Could not keep ${which}.${rest}`, ...(requestId ? { requestId } : {}) };
}

/**
 * The service's error, with what the user can do about an input it refused: a Files id it no
 * longer has (expired or deleted) is named with the field it was given in.
 */
function explain(error: ApiError, given: readonly MediaSource[]): WorkbenchError {
  const base = toWorkbenchError(error);
  if (error.kind !== 'http' || (error.status !== 404 && error.status !== 400)) return base;
  const files = given.flatMap((s, i) => (s.kind === 'file' ? [{ fileId: s.fileId, field: given.length === 1 ? 'image' : `images[${i}]` }] : []));
  const named = files.filter((f) => error.status === 404 || base.message.includes(f.fileId));
  if (named.length === 0) return base;
  const what = named.map((f) => `${f.field} (${f.fileId})`).join(', ');
  const hint = `${what}: the service no longer has ${named.length === 1 ? 'that file' : 'those files'} (it expired or was deleted). Upload the image again, or choose it from the gallery.`;
  return { ...base, message: `${base.message} — ${hint}`, issues: named.map((f) => ({ path: f.field, message: 'not on the service any more' })) };
}
