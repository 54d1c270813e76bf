/**
 * Merges the service's four model listings into one catalogue. Pure: the listings in, entries out.
 * The basic listing (/v1/models) has every model with its prices; the three typed listings add
 * kind, modalities, version and the fields only they carry. There is no typed realtime listing: a
 * model only the basic listing has is `realtime` when it is one of the spec's realtime models
 * (by id or alias), else `other`.
 */
import type { CatalogueEntry, ModelKind } from '../../shared/families/models/contract';
import type { ImageGenerationModel, LanguageModel, Model, VideoGenerationModel } from '../../shared/wire/models';
import { REALTIME_MODELS } from '../../shared/wire/realtime';

const REALTIME_IDS: ReadonlySet<string> = new Set(REALTIME_MODELS);

export interface Listings {
  models: Model[];
  language: LanguageModel[];
  image: ImageGenerationModel[];
  video: VideoGenerationModel[];
}

/** 0 in the typed listings means "no separate price" (spec); the catalogue shows that as null. */
function zeroAsNull(value: number | null | undefined): number | null {
  return value ? value : null;
}

/** The fields every typed listing (language, image, video) carries. */
type TypedListing = Pick<LanguageModel, 'aliases' | 'owned_by' | 'created' | 'version' | 'input_modalities' | 'output_modalities'>;

function applyTyped(e: CatalogueEntry, m: TypedListing): CatalogueEntry {
  Object.assign(e, {
    aliases: m.aliases,
    ownedBy: m.owned_by,
    created: m.created,
    version: m.version,
    inputModalities: m.input_modalities,
    outputModalities: m.output_modalities,
  });
  return e;
}

export function mergeCatalogue(listings: Listings): CatalogueEntry[] {
  const byId = new Map<string, CatalogueEntry>();
  const entry = (id: string, kind: ModelKind): CatalogueEntry => {
    let found = byId.get(id);
    if (!found) {
      found = {
        id,
        kind,
        aliases: [],
        ownedBy: '',
        created: 0,
        version: null,
        inputModalities: [],
        outputModalities: [],
        contextLength: null,
        prices: {},
      };
      byId.set(id, found);
    }
    // A typed listing knows better than the basic one's guess.
    if (found.kind === 'other' || found.kind === 'realtime') found.kind = kind;
    return found;
  };

  for (const m of listings.models) {
    const e = entry(m.id, [m.id, ...(m.aliases ?? [])].some((id) => REALTIME_IDS.has(id)) ? 'realtime' : 'other');
    Object.assign(e, { aliases: m.aliases ?? [], ownedBy: m.owned_by, created: m.created, contextLength: m.context_length });
    e.prices = {
      prompt_text_token_price: m.prompt_text_token_price,
      cached_prompt_text_token_price: m.cached_prompt_text_token_price,
      completion_text_token_price: m.completion_text_token_price,
      prompt_image_token_price: m.prompt_image_token_price,
      image_price: m.image_price,
      prompt_text_token_price_long_context: m.prompt_text_token_price_long_context,
      cached_prompt_text_token_price_long_context: m.cached_prompt_text_token_price_long_context,
      completion_text_token_price_long_context: m.completion_text_token_price_long_context,
      long_context_threshold: m.long_context_threshold,
    };
  }
  for (const m of listings.language) {
    const e = applyTyped(entry(m.id, 'language'), m);
    e.prices = {
      ...e.prices,
      prompt_text_token_price: m.prompt_text_token_price,
      cached_prompt_text_token_price: m.cached_prompt_text_token_price,
      completion_text_token_price: m.completion_text_token_price,
      prompt_image_token_price: m.prompt_image_token_price,
      search_price: m.search_price,
      prompt_text_token_price_long_context: zeroAsNull(m.prompt_text_token_price_long_context),
      cached_prompt_text_token_price_long_context: zeroAsNull(m.cached_prompt_text_token_price_long_context),
      completion_text_token_price_long_context: zeroAsNull(m.completion_text_token_price_long_context),
      long_context_threshold: zeroAsNull(m.long_context_threshold),
    };
  }
  for (const m of listings.image) {
    const e = applyTyped(entry(m.id, 'image'), m);
    e.prices = { ...e.prices, image_price: m.image_price, prompt_image_token_price: m.prompt_image_token_price ?? e.prices.prompt_image_token_price };
  }
  for (const m of listings.video) applyTyped(entry(m.id, 'video'), m);
  const order: Record<ModelKind, number> = { language: 0, image: 1, video: 2, realtime: 3, other: 4 };
  return [...byId.values()].sort((a, b) => order[a.kind] - order[b.kind] || a.id.localeCompare(b.id));
}
