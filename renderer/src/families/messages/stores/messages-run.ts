/**
 * The Messages playground's current run: a text run over `messages.send` (see use-text-run.ts),
 * plus the answer's content blocks (for "Add to conversation" and the tool loop).
 */
import { defineStore } from 'pinia';
import { computed } from 'vue';
import type { MessagesSendInput } from '@shared/families/messages/contract';
import type { MessagesContentBlock, MessagesRequest } from '@shared/wire/messages';
import { pendingFromMessages } from '@shared/tools/pending-calls';
import { useWorkbench } from '../../../api';
import { useTextRun } from '../../../composables/use-text-run';
import { contentOf } from '../lib/messages-form';
import { useRequestHeadersStore } from '../../../stores/request-headers';

export const useMessagesRunStore = defineStore('messages-run', () => {
  const run = useTextRun<MessagesSendInput>((input, onChunk) => useWorkbench().messages.send(input, onChunk));

  /** The answer's blocks as recorded; when only the stream's text exists, that text as one block. */
  const content = computed<MessagesContentBlock[]>(() => {
    const recorded = contentOf(run.record.value?.output);
    if (recorded.length) return recorded;
    const text = run.choices.value[0]?.content ?? '';
    return text ? [{ type: 'text', text }] : [];
  });

  /** tool_use blocks of a finished run that still need an answer. */
  const pendingCalls = computed(() => (run.phase.value === 'completed' ? pendingFromMessages(content.value) : []));

  /** Starts a run; resolves when it has ended (never rejects). */
  async function send(request: MessagesRequest): Promise<void> {
    await run.send({ request: request as unknown as MessagesSendInput['request'], ...useRequestHeadersStore().sendPart('messages') });
  }

  return { ...run, content, pendingCalls, send };
});
