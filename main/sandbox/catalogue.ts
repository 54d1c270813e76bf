/**
 * The sandbox's model catalogue: three language models (a flagship with a long-context tier and
 * image input, a fast one, and a reasoning model), one image model and two video models (one also
 * takes reference voices), plus the realtime voice models (basic listing only). Prices are in the service's units: USD cents per 100M tokens ($2.00
 * per 1M tokens = 20000), cents per image, cents per second of video. Every endpoint that takes a
 * model resolves it here, by id or alias. The built-in voices are listed here too.
 */
import type { ImageGenerationModel, LanguageModel, Model, VideoGenerationModel } from '../../shared/wire/models';
import { PRESET_VOICES } from '../../shared/wire/voices';
import { REALTIME_MODELS } from '../../shared/wire/realtime';

/** A language model plus what the sandbox needs to imitate it. */
export interface LanguageEntry extends LanguageModel {
  context_length: number;
  /** Answers with reasoning_content; refuses penalties and stop; accepts reasoning_effort. */
  reasoning: boolean;
}

const OWNER = 'sandbox';
const CREATED = 1_735_689_600; // 2025-01-01: fixed so listings are stable across runs

export const LANGUAGE_MODELS: readonly LanguageEntry[] = [
  {
    id: 'svc-4',
    object: 'model',
    created: CREATED,
    owned_by: OWNER,
    version: '4.0.0',
    aliases: ['svc-4-latest'],
    fingerprint: 'fp_5a1e4b7c2d',
    input_modalities: ['text', 'image'],
    output_modalities: ['text'],
    prompt_text_token_price: 30_000, // $3.00 / 1M
    cached_prompt_text_token_price: 7_500, // $0.75 / 1M
    completion_text_token_price: 150_000, // $15.00 / 1M
    prompt_image_token_price: 30_000,
    search_price: 250_000_000, // $25 per 1,000 searches
    prompt_text_token_price_long_context: 60_000,
    cached_prompt_text_token_price_long_context: 15_000,
    completion_text_token_price_long_context: 300_000,
    long_context_threshold: 128_000,
    context_length: 256_000,
    reasoning: false,
  },
  {
    id: 'svc-4-fast',
    object: 'model',
    created: CREATED + 86_400 * 30,
    owned_by: OWNER,
    version: '4.1.0',
    aliases: ['svc-4-fast-latest'],
    fingerprint: 'fp_9c3d0e6f1a',
    input_modalities: ['text', 'image'],
    output_modalities: ['text'],
    prompt_text_token_price: 2_000, // $0.20 / 1M
    cached_prompt_text_token_price: 500, // $0.05 / 1M
    completion_text_token_price: 5_000, // $0.50 / 1M
    prompt_image_token_price: 2_000,
    search_price: 250_000_000,
    prompt_text_token_price_long_context: 0,
    cached_prompt_text_token_price_long_context: 0,
    completion_text_token_price_long_context: 0,
    long_context_threshold: 0,
    context_length: 2_000_000,
    reasoning: false,
  },
  {
    id: 'svc-3-mini',
    object: 'model',
    created: CREATED - 86_400 * 90,
    owned_by: OWNER,
    version: '3.0.0',
    aliases: ['svc-3-mini-latest', 'svc-mini'],
    fingerprint: 'fp_2a885414fb',
    input_modalities: ['text'],
    output_modalities: ['text'],
    prompt_text_token_price: 3_000, // $0.30 / 1M
    cached_prompt_text_token_price: 750, // $0.075 / 1M
    completion_text_token_price: 5_000, // $0.50 / 1M
    prompt_image_token_price: 0,
    search_price: 250_000_000,
    prompt_text_token_price_long_context: 0,
    cached_prompt_text_token_price_long_context: 0,
    completion_text_token_price_long_context: 0,
    long_context_threshold: 0,
    context_length: 131_072,
    reasoning: true,
  },
];

export const IMAGE_MODELS: readonly ImageGenerationModel[] = [
  {
    id: 'svc-image-1',
    aliases: ['svc-image-latest'],
    created: CREATED,
    fingerprint: 'fp_7e2b9d4c60',
    image_price: 7, // 7 cents per image
    input_modalities: ['text', 'image'],
    output_modalities: ['image'],
    max_prompt_length: 1024,
    object: 'model',
    owned_by: OWNER,
    version: '1.0.0',
    prompt_text_token_price: 1_000,
    prompt_image_token_price: 1_000,
    generated_image_token_price: 0,
  },
];

export const VIDEO_MODELS: readonly VideoGenerationModel[] = [
  {
    id: 'svc-video-1',
    aliases: ['svc-video-latest'],
    created: CREATED,
    fingerprint: 'fp_3f8a1c5e92',
    input_modalities: ['text', 'image'],
    output_modalities: ['video'],
    object: 'model',
    owned_by: OWNER,
    version: '1.0.0',
  },
  {
    id: 'svc-video-1-audio',
    aliases: ['svc-video-audio-latest'],
    created: CREATED + 86_400 * 60,
    fingerprint: 'fp_6b2d9e0a47',
    // `audio`: takes `reference_audios` (built-in voice ids).
    input_modalities: ['text', 'image', 'audio'],
    output_modalities: ['video'],
    object: 'model',
    owned_by: OWNER,
    version: '1.1.0',
  },
];

/**
 * The realtime voice models (/v1/realtime): only in the basic listing (there is no typed realtime
 * listing), with token prices. The record has no audio price fields, so a token of text or audio
 * in is priced as a prompt token and one out as a completion token (what the app's cost per call
 * assumes too); what the previous response already read is billed at the cached price.
 */
export interface RealtimeModelEntry {
  id: string;
  aliases: string[];
  created: number;
  owned_by: string;
  prompt_text_token_price: number;
  cached_prompt_text_token_price: number;
  completion_text_token_price: number;
}

export const REALTIME_CATALOGUE: readonly RealtimeModelEntry[] = REALTIME_MODELS.map((id, i) => ({
  id,
  aliases: [],
  created: CREATED + 86_400 * (120 - i * 30),
  owned_by: OWNER,
  prompt_text_token_price: 40_000, // $4.00 / 1M
  cached_prompt_text_token_price: 4_000, // $0.40 / 1M
  completion_text_token_price: 160_000, // $16.00 / 1M
}));

/**
 * What a video costs, in US cents per second of output, by resolution (every video model; the
 * listing has no price field for video). 8 s at 720p = 80 cents = 8,000,000,000 ticks. The table
 * is shared: the Videos view estimates with the same one (shared/video-pricing.ts).
 */
export { VIDEO_PRICE_CENTS_PER_SECOND } from '../../shared/video-pricing';

/** A built-in (first-party preset) voice, spec "Built-in voice". */
export interface BuiltInVoice {
  voice_id: string;
  name: string;
  language: string;
}

/**
 * The service's preset voices (shared/wire/voices.ts, the list the app offers): the ids `reference_audios[].voice_id` accepts (and, with the same
 * identifiers, text-to-speech and realtime once the sandbox serves them).
 */
export const BUILT_IN_VOICES: readonly BuiltInVoice[] = PRESET_VOICES.map((v) => ({ voice_id: v.id, name: v.name, language: 'multilingual' }));

function byIdOrAlias<T extends { id: string; aliases: string[] }>(list: readonly T[], id: string): T | undefined {
  return list.find((m) => m.id === id) ?? list.find((m) => m.aliases.includes(id));
}

/** A language model by id or alias. */
export function findLanguageModel(id: string): LanguageEntry | undefined {
  return byIdOrAlias(LANGUAGE_MODELS, id);
}

export function findImageModel(id: string): ImageGenerationModel | undefined {
  return byIdOrAlias(IMAGE_MODELS, id);
}

export function findVideoModel(id: string): VideoGenerationModel | undefined {
  return byIdOrAlias(VIDEO_MODELS, id);
}

export function findRealtimeModel(id: string): RealtimeModelEntry | undefined {
  return byIdOrAlias(REALTIME_CATALOGUE, id);
}

function isRealtimeEntry(entry: object): entry is RealtimeModelEntry {
  return (REALTIME_CATALOGUE as readonly object[]).includes(entry);
}

/** The public language-model record (without the sandbox's own fields). */
export function toLanguageModel(entry: LanguageEntry): LanguageModel {
  const { context_length: _context, reasoning: _reasoning, ...model } = entry;
  return model;
}

/** The basic `/v1/models` record of any model. */
export function toBasicModel(
  entry: LanguageEntry | ImageGenerationModel | VideoGenerationModel | RealtimeModelEntry,
): Model {
  const base = { id: entry.id, aliases: entry.aliases, created: entry.created, object: 'model' as const, owned_by: entry.owned_by };
  const none = {
    context_length: null,
    prompt_text_token_price: null,
    cached_prompt_text_token_price: null,
    completion_text_token_price: null,
    prompt_image_token_price: null,
    image_price: null,
    prompt_text_token_price_long_context: null,
    cached_prompt_text_token_price_long_context: null,
    completion_text_token_price_long_context: null,
    long_context_threshold: null,
  };
  if ('context_length' in entry) {
    return {
      ...base,
      ...none,
      context_length: entry.context_length,
      prompt_text_token_price: entry.prompt_text_token_price,
      cached_prompt_text_token_price: entry.cached_prompt_text_token_price,
      completion_text_token_price: entry.completion_text_token_price,
      prompt_image_token_price: entry.prompt_image_token_price,
      prompt_text_token_price_long_context: entry.prompt_text_token_price_long_context,
      cached_prompt_text_token_price_long_context: entry.cached_prompt_text_token_price_long_context,
      completion_text_token_price_long_context: entry.completion_text_token_price_long_context,
      long_context_threshold: entry.long_context_threshold,
    };
  }
  if (isRealtimeEntry(entry)) {
    return { ...base, ...none, prompt_text_token_price: entry.prompt_text_token_price, cached_prompt_text_token_price: entry.cached_prompt_text_token_price, completion_text_token_price: entry.completion_text_token_price };
  }
  if ('image_price' in entry) {
    return { ...base, ...none, image_price: entry.image_price, prompt_text_token_price: entry.prompt_text_token_price ?? null, prompt_image_token_price: entry.prompt_image_token_price ?? null };
  }
  return { ...base, ...none };
}

/** Every model in `/v1/models` order: language, image, video, realtime. */
export function allBasicModels(): Model[] {
  return [...LANGUAGE_MODELS, ...IMAGE_MODELS, ...VIDEO_MODELS, ...REALTIME_CATALOGUE].map(toBasicModel);
}
