import { describe, expect, it } from 'vitest';
import { mergeCatalogue } from '../../../../main/services/models-catalogue';
import type { LanguageModel, Model } from '../../../../shared/wire/models';
import { allBasicModels, IMAGE_MODELS, LANGUAGE_MODELS, REALTIME_CATALOGUE, toLanguageModel, VIDEO_MODELS } from '../../../../main/sandbox/catalogue';

const basic = (id: string, over: Partial<Model> = {}): Model => ({
  id,
  aliases: [],
  created: 1,
  object: 'model',
  owned_by: 'svc',
  context_length: 1000,
  prompt_text_token_price: 100,
  cached_prompt_text_token_price: 25,
  completion_text_token_price: 400,
  prompt_image_token_price: null,
  image_price: null,
  prompt_text_token_price_long_context: null,
  cached_prompt_text_token_price_long_context: null,
  completion_text_token_price_long_context: null,
  long_context_threshold: null,
  ...over,
});

const language = (id: string, over: Partial<LanguageModel> = {}): LanguageModel => ({
  id,
  object: 'model',
  created: 1,
  owned_by: 'svc',
  version: '1.0',
  aliases: [`${id}-latest`],
  fingerprint: 'fp',
  input_modalities: ['text'],
  output_modalities: ['text'],
  prompt_text_token_price: 100,
  cached_prompt_text_token_price: 25,
  completion_text_token_price: 400,
  prompt_image_token_price: 0,
  search_price: 0,
  prompt_text_token_price_long_context: 0,
  cached_prompt_text_token_price_long_context: 0,
  completion_text_token_price_long_context: 0,
  long_context_threshold: 0,
  ...over,
});

describe('mergeCatalogue()', () => {
  it('joins one model from the basic and the typed listing, with 0 tiers shown as absent', () => {
    const [entry] = mergeCatalogue({ models: [basic('m1')], language: [language('m1')], image: [], video: [] });
    expect(entry).toMatchObject({
      id: 'm1',
      kind: 'language',
      aliases: ['m1-latest'],
      version: '1.0',
      contextLength: 1000,
      inputModalities: ['text'],
      prices: { prompt_text_token_price: 100, long_context_threshold: null, prompt_text_token_price_long_context: null },
    });
  });

  it('keeps a model that only the basic listing has, as kind other, after the typed kinds', () => {
    const entries = mergeCatalogue({
      models: [basic('zeta'), basic('alpha')],
      language: [language('zeta')],
      image: [],
      video: [{ id: 'vid', aliases: [], created: 1, fingerprint: 'f', input_modalities: ['text'], output_modalities: ['video'], object: 'model', owned_by: 's', version: '1' }],
    });
    expect(entries.map((e) => [e.id, e.kind])).toEqual([
      ['zeta', 'language'],
      ['vid', 'video'],
      ['alpha', 'other'],
    ]);
  });

  it("gives the realtime voice models (only in the basic listing) the kind realtime, after video and before other, in the sandbox's catalogue too", () => {
    const entries = mergeCatalogue({ models: [basic('mystery'), basic('svc-voice-latest'), basic('renamed', { aliases: ['svc-voice-fast-1.0'] })], language: [], image: [], video: [] });
    expect(entries.map((e) => [e.id, e.kind])).toEqual([
      ['renamed', 'realtime'],
      ['svc-voice-latest', 'realtime'],
      ['mystery', 'other'],
    ]);
    // The sandbox's own listings, as the Models view merges them: each realtime model is `realtime`, nothing is left `other`.
    const sandbox = mergeCatalogue({ models: allBasicModels(), language: LANGUAGE_MODELS.map(toLanguageModel), image: [...IMAGE_MODELS], video: [...VIDEO_MODELS] });
    expect(sandbox.filter((e) => e.kind === 'realtime').map((e) => e.id).sort()).toEqual(REALTIME_CATALOGUE.map((m) => m.id).sort());
    expect(sandbox.filter((e) => e.kind === 'other')).toEqual([]);
  });

  it('keeps long-context tiers when the typed listing has them', () => {
    const [entry] = mergeCatalogue({
      models: [],
      language: [language('big', { long_context_threshold: 128000, prompt_text_token_price_long_context: 200 })],
      image: [],
      video: [],
    });
    expect(entry.prices.long_context_threshold).toBe(128000);
    expect(entry.prices.prompt_text_token_price_long_context).toBe(200);
  });
});
