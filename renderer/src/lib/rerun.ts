/**
 * "Re-run in playground": how each playground takes a recorded request back into its form. The
 * table is keyed by the families' PlaygroundId, so a new playground without a loader is a compile
 * error; which runs go where comes from the endpoint descriptors (shared/families.ts).
 */
import type { RouteLocationRaw } from 'vue-router';
import type { RunRecord } from '@shared/contract/runs';
import { endpointInfo, type PlaygroundId } from '@shared/families';
import { useChatFormStore } from '../stores/chat-form';
import { useLegacyFormStore } from '../stores/legacy-form';
import { useMessagesFormStore } from '../stores/messages-form';
import { useResponsesRunStore } from '../stores/responses-run';

const LOADERS: Record<PlaygroundId, (record: RunRecord) => RouteLocationRaw> = {
  chat(record) {
    useChatFormStore().loadRequest(record.request.body);
    return '/chat';
  },
  responses(record) {
    // Continuing runs reopen at the node they continued from, so the re-run becomes a sibling.
    const from = useResponsesRunStore().rerun(record.request.body);
    return from ? { path: '/responses', query: { node: from } } : '/responses';
  },
  messages(record) {
    useMessagesFormStore().loadRequest(record.request.body);
    return '/messages';
  },
  legacy(record) {
    useLegacyFormStore().loadRequest(record.endpoint === 'complete' ? 'complete' : 'completions', record.request.body);
    return '/legacy';
  },
};

/** Whether `record` can go back into a playground (a retrieve, delete or compaction cannot). */
export function canRerun(record: RunRecord): boolean {
  return endpointInfo(record.endpoint)?.rerun != null;
}

/** Loads `record` into its playground's form; returns where to navigate, or null. */
export function loadIntoPlayground(record: RunRecord): RouteLocationRaw | null {
  const target = endpointInfo(record.endpoint)?.rerun;
  return target ? LOADERS[target](record) : null;
}
