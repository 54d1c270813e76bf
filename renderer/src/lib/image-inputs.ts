/**
 * The Images playground's pure rules: which files an edit takes (JPEG/PNG/WebP by type or name;
 * main re-checks the bytes), the prompt limit of a model, the cost estimate, and the
 * `<IMAGE_n>` references of a multi-image edit.
 */
import type { CatalogueRow } from './catalogue';
import { IMAGE_INPUT_MIME_TYPES, IMAGE_LIMITS } from '@shared/wire/images';
import { TICKS_PER_CENT } from '@shared/cost';
import { formatBytes } from '@shared/byte-size';

const EXTENSIONS: Record<string, (typeof IMAGE_INPUT_MIME_TYPES)[number]> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

/** Why `file` cannot be an edit's input, or null when it can. */
export function imageFileProblem(file: { name: string; type: string; size: number }): string | null {
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  const byType = (IMAGE_INPUT_MIME_TYPES as readonly string[]).includes(file.type);
  if (!byType && !(file.type === '' && EXTENSIONS[ext])) {
    return `"${file.name}" is not a JPEG, PNG or WebP image${file.type ? ` (it is ${file.type})` : ''}; an edit takes only those.`;
  }
  if (file.size > IMAGE_LIMITS.maxInputImageBytes) {
    return `"${file.name}" is ${formatBytes(file.size)}: over the ${formatBytes(IMAGE_LIMITS.maxInputImageBytes)} an edit takes; nothing was sent.`;
  }
  if (file.size === 0) return `"${file.name}" is empty.`;
  return null;
}

/** The catalogue's image models (kind `image`, or an image among the outputs). */
export function imageModels(rows: readonly CatalogueRow[]): CatalogueRow[] {
  return rows.filter((r) => r.kind === 'image' || r.outputModalities.includes('image'));
}

/**
 * The model's prompt limit in characters: its listing's `max_prompt_length` when the catalogue
 * carries it (main may pass the raw field through), else the documented default.
 */
export function maxPromptLength(row: CatalogueRow | undefined): number {
  const raw = row?.entry as unknown as { maxPromptLength?: unknown; max_prompt_length?: unknown } | undefined;
  const v = raw?.maxPromptLength ?? raw?.max_prompt_length;
  return typeof v === 'number' && v > 0 ? v : IMAGE_LIMITS.maxPromptLengthDefault;
}

/** n × image_price (cents per image) in ticks; null when the model lists no image price. */
export function estimateTicks(row: CatalogueRow | undefined, n: number): number | null {
  const cents = row?.entry.prices.image_price;
  return typeof cents === 'number' ? cents * n * TICKS_PER_CENT : null;
}

/** The reference a multi-image edit's prompt uses for input `i`. */
export function imageRef(i: number): string {
  return `<IMAGE_${i}>`;
}

/** `text` with `insert` put at the caret (`at`, else the end), spaced from its neighbours. */
export function insertAt(text: string, insert: string, at: number | null): { text: string; caret: number } {
  const pos = at === null || at < 0 || at > text.length ? text.length : at;
  const before = text.slice(0, pos);
  const after = text.slice(pos);
  const lead = before && !/\s$/.test(before) ? ' ' : '';
  const trail = after && !/^\s/.test(after) ? ' ' : '';
  const piece = `${lead}${insert}${trail}`;
  return { text: before + piece + after, caret: pos + piece.length };
}
