/**
 * "Use in playground" from the Models table: which text playgrounds can send to a model (from
 * its kind, and the legacy endpoints' refusal of reasoning models), and opening one with the
 * model already chosen.
 */
import type { RouteLocationRaw } from 'vue-router';
import type { TextPlaygroundId as PlaygroundId } from '@shared/families';
import { isReasoningModel, type ModelNames } from '../lib/legacy-reasoning';
import { useChatFormStore } from '../families/chat/stores/chat-form';
import { useLegacyFormStore } from '../families/legacy/stores/legacy-form';
import { useMessagesFormStore } from '../families/messages/stores/messages-form';
import { useResponsesFormStore } from '../families/responses/stores/responses-form';

/** One playground offered for a model, or why it is not (shown disabled, with the reason). */
export interface PlaygroundChoice {
  playground: PlaygroundId;
  label: string;
  disabledReason: string | null;
}

const LABELS: Record<PlaygroundId, string> = { chat: 'Chat', responses: 'Responses', messages: 'Messages', legacy: 'Completions' };

/** A catalogue row as far as the choice needs it. */
export interface ModelRowLike extends ModelNames {
  kind: string;
}

/**
 * The playgrounds for `row`, in nav order. Only language models generate text; the legacy
 * endpoints refuse reasoning models (lib/legacy-reasoning), so Completions says so for those.
 */
export function playgroundsFor(row: ModelRowLike, catalogue: readonly ModelNames[] = []): PlaygroundChoice[] {
  const notText = row.kind === 'language' ? null : `${row.id} is not a language model (kind: ${row.kind}): the text playgrounds cannot use it.`;
  return (Object.keys(LABELS) as PlaygroundId[]).map((playground) => {
    let disabledReason = notText;
    if (!disabledReason && playground === 'legacy' && isReasoningModel(row.id, catalogue)) {
      disabledReason = `${row.id} is a reasoning model: the legacy completions endpoints do not support it.`;
    }
    return { playground, label: LABELS[playground], disabledReason };
  });
}

/** Chooses `model` in the playground's form and returns where to navigate. */
export function chooseModelIn(playground: PlaygroundId, model: string): RouteLocationRaw {
  switch (playground) {
    case 'chat':
      useChatFormStore().model = model;
      return '/chat';
    case 'responses':
      useResponsesFormStore().form.model = model;
      return '/responses';
    case 'messages':
      useMessagesFormStore().model = model;
      return '/messages';
    case 'legacy': {
      const legacy = useLegacyFormStore();
      legacy.model = model;
      legacy.tab = 'completions';
      return '/legacy';
    }
  }
}
