import { describe, expect, it } from 'vitest';
import type { ImageGenerationModel, LanguageModel, Model } from '../../../../../shared/wire/models';
import { useHarness } from '../harness';

const h = useHarness();

describe('sandbox/routes/models', () => {
  describe('GET /v1/models', () => {
    it('lists every model with all basic fields', async () => {
      const res = await h.get('/v1/models');
      const body = (await res.json()) as { data: Model[]; object: string };
      expect(body.object).toBe('list');
      expect(body.data.map((m) => m.id)).toEqual(['svc-4', 'svc-4-fast', 'svc-3-mini', 'svc-image-1', 'svc-video-1', 'svc-video-1-audio', 'svc-voice-latest', 'svc-voice-think-fast-2.0', 'svc-voice-think-fast-1.0', 'svc-voice-fast-1.0']);
      expect(body.data[0]).toEqual({
        id: 'svc-4',
        aliases: ['svc-4-latest'],
        created: expect.any(Number),
        object: 'model',
        owned_by: 'sandbox',
        context_length: 256000,
        prompt_text_token_price: 30000,
        cached_prompt_text_token_price: 7500,
        completion_text_token_price: 150000,
        prompt_image_token_price: 30000,
        image_price: null,
        prompt_text_token_price_long_context: 60000,
        cached_prompt_text_token_price_long_context: 15000,
        completion_text_token_price_long_context: 300000,
        long_context_threshold: 128000,
      });
      expect(body.data.find((m) => m.id === 'svc-image-1')?.image_price).toBe(7);
    });

    it('retrieves by id and by alias, and 404s with the service message otherwise', async () => {
      expect(((await (await h.get('/v1/models/svc-mini')).json()) as Model).id).toBe('svc-3-mini');
      expect(((await (await h.get('/v1/models/svc-video-1')).json()) as Model).id).toBe('svc-video-1');
      const res = await h.get('/v1/models/svc-99');
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        code: 'Some requested entity was not found',
        error: 'The model svc-99 does not exist or your team does not have access to it.',
      });
    });
  });

  describe('GET /v1/language-models', () => {
    it('lists the language models with every required field', async () => {
      const body = (await (await h.get('/v1/language-models')).json()) as { models: LanguageModel[] };
      expect(body.models.map((m) => m.id)).toEqual(['svc-4', 'svc-4-fast', 'svc-3-mini']);
      const keys = [
        'id', 'object', 'created', 'owned_by', 'version', 'aliases', 'fingerprint', 'input_modalities', 'output_modalities',
        'prompt_text_token_price', 'cached_prompt_text_token_price', 'completion_text_token_price', 'prompt_image_token_price',
        'search_price', 'prompt_text_token_price_long_context', 'cached_prompt_text_token_price_long_context',
        'completion_text_token_price_long_context', 'long_context_threshold',
      ];
      for (const m of body.models) expect(Object.keys(m).sort()).toEqual([...keys].sort());
      expect(body.models[0].input_modalities).toEqual(['text', 'image']);
    });

    it('retrieves by alias and 404s for an image model id', async () => {
      expect(((await (await h.get('/v1/language-models/svc-4-latest')).json()) as LanguageModel).id).toBe('svc-4');
      expect((await h.get('/v1/language-models/svc-image-1')).status).toBe(404);
    });
  });

  describe('GET /v1/image-generation-models and /v1/video-generation-models', () => {
    it('list and retrieve their models', async () => {
      const images = (await (await h.get('/v1/image-generation-models')).json()) as { models: ImageGenerationModel[] };
      expect(images.models[0]).toMatchObject({ id: 'svc-image-1', image_price: 7, max_prompt_length: 1024, output_modalities: ['image'] });
      const videos = (await (await h.get('/v1/video-generation-models')).json()) as { models: Array<{ id: string }> };
      expect(videos.models.map((m) => m.id)).toEqual(['svc-video-1', 'svc-video-1-audio']);
      expect(((await (await h.get('/v1/video-generation-models/svc-video-latest')).json()) as { id: string }).id).toBe('svc-video-1');
      expect((await h.get('/v1/image-generation-models/svc-4')).status).toBe(404);
    });
  });
});
