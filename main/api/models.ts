/** The model catalogue family: the four listings of spec "Models" and their single-model reads. */
import type {
  ImageGenerationModel,
  LanguageModel,
  Model,
  ModelList,
  ModelsWrapper,
  VideoGenerationModel,
} from '../../shared/wire/models';
import type { ApiClient, ApiResult } from './client';

/** Cancellation for catalogue reads. */
export interface ModelCallOptions {
  signal?: AbortSignal;
}

function get<T>(client: ApiClient, path: string, opts: ModelCallOptions): Promise<ApiResult<T>> {
  return client.json<T>({ method: 'GET', path, signal: opts.signal });
}

const one = (base: string, id: string): string => `${base}/${encodeURIComponent(id)}`;

/** `GET /v1/models`. */
export function listModels(client: ApiClient, opts: ModelCallOptions = {}): Promise<ApiResult<ModelList>> {
  return get(client, '/v1/models', opts);
}

/** `GET /v1/models/{id}`. */
export function getModel(client: ApiClient, id: string, opts: ModelCallOptions = {}): Promise<ApiResult<Model>> {
  return get(client, one('/v1/models', id), opts);
}

/** `GET /v1/language-models`. */
export function listLanguageModels(
  client: ApiClient,
  opts: ModelCallOptions = {},
): Promise<ApiResult<ModelsWrapper<LanguageModel>>> {
  return get(client, '/v1/language-models', opts);
}

/** `GET /v1/language-models/{id}`. */
export function getLanguageModel(client: ApiClient, id: string, opts: ModelCallOptions = {}): Promise<ApiResult<LanguageModel>> {
  return get(client, one('/v1/language-models', id), opts);
}

/** `GET /v1/image-generation-models`. */
export function listImageGenerationModels(
  client: ApiClient,
  opts: ModelCallOptions = {},
): Promise<ApiResult<ModelsWrapper<ImageGenerationModel>>> {
  return get(client, '/v1/image-generation-models', opts);
}

/** `GET /v1/image-generation-models/{id}`. */
export function getImageGenerationModel(
  client: ApiClient,
  id: string,
  opts: ModelCallOptions = {},
): Promise<ApiResult<ImageGenerationModel>> {
  return get(client, one('/v1/image-generation-models', id), opts);
}

/** `GET /v1/video-generation-models`. */
export function listVideoGenerationModels(
  client: ApiClient,
  opts: ModelCallOptions = {},
): Promise<ApiResult<ModelsWrapper<VideoGenerationModel>>> {
  return get(client, '/v1/video-generation-models', opts);
}

/** `GET /v1/video-generation-models/{id}`. */
export function getVideoGenerationModel(
  client: ApiClient,
  id: string,
  opts: ModelCallOptions = {},
): Promise<ApiResult<VideoGenerationModel>> {
  return get(client, one('/v1/video-generation-models', id), opts);
}
