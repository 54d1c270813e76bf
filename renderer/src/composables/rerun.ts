/**
 * From History back into a playground. "Open in playground" puts the recorded request in the
 * playground's form AND shows the recorded output as its current result (never an unrelated older
 * one); "Run again" (see use-run-again.ts) sends the request at once from History. The loader
 * table is keyed by the families' PlaygroundId, so a new playground without one is a compile
 * error; which runs go where comes from the endpoint descriptors (shared/families/).
 */
import type { RouteLocationRaw } from 'vue-router';
import type { RunRecord } from '@shared/contract/runs';
import { endpointInfo, type PlaygroundId } from '@shared/families';
import { useChatFormStore } from '../families/chat/stores/chat-form';
import { useChatRunStore } from '../families/chat/stores/chat-run';
import { useImagesFormStore } from '../families/images/stores/images-form';
import { useLegacyFormStore } from '../families/legacy/stores/legacy-form';
import { useLegacyRunStore } from '../families/legacy/stores/legacy-run';
import { useMessagesFormStore } from '../families/messages/stores/messages-form';
import { useMessagesRunStore } from '../families/messages/stores/messages-run';
import { useResponsesRunStore } from '../families/responses/stores/responses-run';
import { sentShape } from '../lib/legacy-form';

/** What the playground shows while Undo can bring back the form the run replaced. */
const REPLACED = 'Form filled from the run in History.';

const LOADERS: Record<PlaygroundId, (record: RunRecord) => RouteLocationRaw> = {
  chat(record) {
    const form = useChatFormStore();
    form.draft.replaceWith(() => form.loadRequest(record.request.body), REPLACED);
    useChatRunStore().show(record);
    return '/chat';
  },
  responses(record) {
    // The store selects the node the run continued from (Send then makes a sibling) and shows
    // this run's own output; no `?node=` in the route, which would show the parent's instead.
    const store = useResponsesRunStore();
    store.draft.replaceWith(() => void store.openRecorded(record), REPLACED);
    return '/responses';
  },
  messages(record) {
    const form = useMessagesFormStore();
    form.draft.replaceWith(() => form.loadRequest(record.request.body), REPLACED);
    useMessagesRunStore().show(record);
    return '/messages';
  },
  legacy(record) {
    const complete = record.endpoint === 'complete';
    const form = useLegacyFormStore();
    form.draft.replaceWith(() => form.loadRequest(complete ? 'complete' : 'completions', record.request.body), REPLACED);
    const runs = useLegacyRunStore();
    if (complete) runs.complete.show(record);
    else {
      runs.sent = sentShape(record.request.body);
      runs.completions.show(record);
    }
    return '/legacy';
  },
  images(record) {
    // The form takes the request; the view shows the run's images (lastRunId) from the gallery.
    const form = useImagesFormStore();
    form.draft.replaceWith(() => form.loadRequest(record.request.body, record.id), REPLACED);
    return '/images';
  },
};

/** Whether `record` can go back into a playground (a retrieve, delete or compaction cannot). */
export function canRerun(record: RunRecord): boolean {
  return endpointInfo(record.endpoint)?.rerun != null;
}

/** Loads `record` into its playground (form and shown result); returns where to navigate, or null. */
export function openInPlayground(record: RunRecord): RouteLocationRaw | null {
  const target = endpointInfo(record.endpoint)?.rerun;
  return target ? LOADERS[target](record) : null;
}
