/**
 * The legacy playground's runs, one per tab: `completions.send` (POST /v1/completions) and
 * `completions.complete` (POST /v1/complete), each a text run (see use-text-run.ts). The
 * completions run also remembers the prompts and `n` it sent, to label its choices.
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { CompleteSendInput, CompletionsSendInput } from '@shared/families/legacy/contract';
import type { CompleteRequest, CompletionsRequest } from '@shared/wire/completions';
import { useWorkbench } from '../../../api';
import { useTextRun } from '../../../composables/use-text-run';
import { sentShape } from '../../../lib/legacy-form';
import { useRequestHeadersStore } from '../../../stores/request-headers';

export const useLegacyRunStore = defineStore('legacy-run', () => {
  const completions = useTextRun<CompletionsSendInput>((input, onChunk) => useWorkbench().completions.send(input, onChunk));
  const complete = useTextRun<CompleteSendInput>((input, onChunk) => useWorkbench().completions.complete(input, onChunk));
  /** Prompts and choices per prompt of the last completions request. */
  const sent = ref<{ prompts: string[]; n: number }>({ prompts: [], n: 1 });

  async function sendCompletions(request: CompletionsRequest): Promise<void> {
    sent.value = sentShape(request);
    await completions.send({ request: request as unknown as CompletionsSendInput['request'], ...useRequestHeadersStore().sendPart('legacy') });
  }

  async function sendComplete(request: CompleteRequest): Promise<void> {
    await complete.send({ request: request as unknown as CompleteSendInput['request'], ...useRequestHeadersStore().sendPart('legacy') });
  }

  return { completions, complete, sent, sendCompletions, sendComplete };
});
