/**
 * Which models are reasoning models, as far as the renderer can tell. The catalogue carries no
 * reasoning flag, so the known reasoning model (svc-3-mini) is named here and matched by id or
 * by any alias the catalogue lists for it. The legacy endpoints refuse these models, and the
 * Messages interface refuses their stop_sequences.
 */

/** Model ids known to be reasoning models. */
export const REASONING_MODEL_IDS: readonly string[] = ['svc-3-mini'];

/** A catalogue row's names: its id and aliases. */
export interface ModelNames {
  id: string;
  aliases: readonly string[];
}

/** Whether `model` (an id or alias) names a reasoning model. */
export function isReasoningModel(model: string, catalogue: readonly ModelNames[] = []): boolean {
  const name = model.trim();
  if (!name) return false;
  if (REASONING_MODEL_IDS.some((id) => name === id || name.startsWith(`${id}-`))) return true;
  return catalogue.some((row) => REASONING_MODEL_IDS.includes(row.id) && row.aliases.includes(name));
}

/** Why the legacy playground cannot send to this model, in words for the notice and Send. */
export function legacyReasoningNotice(model: string): string {
  return `${model} is a reasoning model: the legacy endpoints do not support it. Use Chat or Responses.`;
}
