/**
 * The four model listings (spec "Model", "Language model", "Image generation model", "Video
 * generation model"), each with a lookup by id or alias that 404s with the service's message.
 */
import {
  allBasicModels,
  findImageModel,
  findLanguageModel,
  findVideoModel,
  findRealtimeModel,
  IMAGE_MODELS,
  LANGUAGE_MODELS,
  toBasicModel,
  toLanguageModel,
  VIDEO_MODELS,
} from '../catalogue';
import { modelNotFound } from '../errors';
import { sendJson, type Route } from '../route';

/** GET routes for /v1/models, /v1/language-models, /v1/image-generation-models, /v1/video-generation-models. */
export function modelRoutes(): Route[] {
  const found = <T>(id: string, model: T | undefined): T => {
    if (model === undefined) throw modelNotFound(id);
    return model;
  };
  return [
    { method: 'GET', path: '/v1/models', handle: ({ res }) => sendJson(res, 200, { data: allBasicModels(), object: 'list' }) },
    {
      method: 'GET',
      path: '/v1/models/:id',
      handle: ({ res, params }) => {
        const model = findLanguageModel(params.id) ?? findImageModel(params.id) ?? findVideoModel(params.id) ?? findRealtimeModel(params.id);
        sendJson(res, 200, toBasicModel(found(params.id, model)));
      },
    },
    { method: 'GET', path: '/v1/language-models', handle: ({ res }) => sendJson(res, 200, { models: LANGUAGE_MODELS.map(toLanguageModel) }) },
    {
      method: 'GET',
      path: '/v1/language-models/:id',
      handle: ({ res, params }) => sendJson(res, 200, toLanguageModel(found(params.id, findLanguageModel(params.id)))),
    },
    { method: 'GET', path: '/v1/image-generation-models', handle: ({ res }) => sendJson(res, 200, { models: IMAGE_MODELS }) },
    {
      method: 'GET',
      path: '/v1/image-generation-models/:id',
      handle: ({ res, params }) => sendJson(res, 200, found(params.id, findImageModel(params.id))),
    },
    { method: 'GET', path: '/v1/video-generation-models', handle: ({ res }) => sendJson(res, 200, { models: VIDEO_MODELS }) },
    {
      method: 'GET',
      path: '/v1/video-generation-models/:id',
      handle: ({ res, params }) => sendJson(res, 200, found(params.id, findVideoModel(params.id))),
    },
  ];
}
