/**
 * The Models table's rows: catalogue entries with prices converted to what people compare
 * (USD per 1M tokens, USD per image), plus the text/kind/modality filter and column sort.
 */
import type { CatalogueEntry, ModelKind } from '@shared/families/models/contract';
import { centsPer100MToUsdPer1M, centsToUsd } from '@shared/cost';

export interface CatalogueRow {
  id: string;
  kind: ModelKind;
  aliases: string[];
  ownedBy: string;
  modalities: string[];
  inputModalities: string[];
  outputModalities: string[];
  contextLength: number | null;
  /** USD per 1M tokens; null when the listing has no such price. */
  promptUsdPer1M: number | null;
  cachedUsdPer1M: number | null;
  completionUsdPer1M: number | null;
  imageTokenUsdPer1M: number | null;
  /** Long-context tier (0 in the listing means "no separate tier": shown as null). */
  longContextThreshold: number | null;
  longPromptUsdPer1M: number | null;
  longCachedUsdPer1M: number | null;
  longCompletionUsdPer1M: number | null;
  imageUsd: number | null;
  entry: CatalogueEntry;
}

const perM = (cents: number | null | undefined): number | null =>
  cents === null || cents === undefined ? null : centsPer100MToUsdPer1M(cents);
const tier = (cents: number | null | undefined): number | null => (cents ? centsPer100MToUsdPer1M(cents) : null);

export function toRow(entry: CatalogueEntry): CatalogueRow {
  const p = entry.prices;
  const threshold = p.long_context_threshold ? p.long_context_threshold : null;
  return {
    id: entry.id,
    kind: entry.kind,
    aliases: entry.aliases,
    ownedBy: entry.ownedBy,
    modalities: [...new Set([...entry.inputModalities, ...entry.outputModalities])],
    inputModalities: entry.inputModalities,
    outputModalities: entry.outputModalities,
    contextLength: entry.contextLength,
    promptUsdPer1M: perM(p.prompt_text_token_price),
    cachedUsdPer1M: perM(p.cached_prompt_text_token_price),
    completionUsdPer1M: perM(p.completion_text_token_price),
    imageTokenUsdPer1M: perM(p.prompt_image_token_price),
    longContextThreshold: threshold,
    longPromptUsdPer1M: threshold ? tier(p.prompt_text_token_price_long_context) : null,
    longCachedUsdPer1M: threshold ? tier(p.cached_prompt_text_token_price_long_context) : null,
    longCompletionUsdPer1M: threshold ? tier(p.completion_text_token_price_long_context) : null,
    imageUsd: p.image_price === null || p.image_price === undefined ? null : centsToUsd(p.image_price),
    entry,
  };
}

export interface CatalogueFilter {
  text: string;
  kind: ModelKind | null;
  modality: string | null;
}

/** Case-insensitive match on id, aliases and owner; kind and modality must match exactly. */
export function filterRows(rows: CatalogueRow[], f: CatalogueFilter): CatalogueRow[] {
  const needle = f.text.trim().toLowerCase();
  return rows.filter(
    (r) =>
      (!f.kind || r.kind === f.kind) &&
      (!f.modality || r.modalities.includes(f.modality)) &&
      (!needle ||
        r.id.toLowerCase().includes(needle) ||
        r.ownedBy.toLowerCase().includes(needle) ||
        r.aliases.some((a) => a.toLowerCase().includes(needle))),
  );
}

export type SortField = 'id' | 'kind' | 'contextLength' | 'promptUsdPer1M' | 'completionUsdPer1M' | 'imageUsd';

/** Stable sort; rows without a value always go last, whatever the direction. */
export function sortRows(rows: CatalogueRow[], field: SortField, order: 1 | -1): CatalogueRow[] {
  return [...rows].sort((a, b) => {
    const x = a[field];
    const y = b[field];
    if (x === null && y === null) return 0;
    if (x === null) return 1;
    if (y === null) return -1;
    const cmp = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return cmp * order;
  });
}

/** Every modality in the catalogue, for the filter's options. */
export function allModalities(rows: CatalogueRow[]): string[] {
  return [...new Set(rows.flatMap((r) => r.modalities))].sort();
}
