/**
 * The Chat playground's current run: a text run over `chat.send` (see use-text-run.ts for what
 * it holds and how streamed text is published once per frame). A deferred run is a durable job
 * in main: this store follows it, and after a reload picks up the newest one still under way.
 */
import { defineStore } from 'pinia';
import type { ChatSendInput } from '@shared/families/chat/contract';
import type { RunRecord } from '@shared/contract/runs';
import type { ChatRequest } from '@shared/wire/chat';
import { useWorkbench } from '../../../api';
import { useTextRun, type TextRunJobs } from '../../../composables/use-text-run';
import { useRequestHeadersStore } from '../../../stores/request-headers';

export type { RunPhase } from '../../../composables/use-text-run';

export const DEFERRED_CHAT_KIND = 'deferred-chat';

/** How a chat text run follows and stops a deferred run (a durable job in main). */
export const CHAT_RUN_JOBS: TextRunJobs = {
  follow: (runId, onChunk) => useWorkbench().chat.follow({ runId }, onChunk),
  cancel: (id) => useWorkbench().jobs.cancel({ id }),
  retryNow: (id) => useWorkbench().jobs.retryNow({ id }),
};

export const useChatRunStore = defineStore('chat-run', () => {
  const run = useTextRun<ChatSendInput>((input, onChunk) => useWorkbench().chat.send(input, onChunk), CHAT_RUN_JOBS);

  /** Starts a run; resolves when it has ended (never rejects). */
  async function send(request: ChatRequest): Promise<void> {
    // ChatRequest is the wire type; the contract's schema is the same shape, open to extra fields.
    await run.send({ request: request as unknown as ChatSendInput['request'], ...useRequestHeadersStore().sendPart('chat') });
  }

  /**
   * When nothing is on screen, follows the newest deferred chat still running in main (the page
   * was reloaded while it was pending), so it shows pending and then its answer by itself.
   */
  async function resumeDeferred(): Promise<void> {
    if (run.phase.value !== 'idle') return;
    let runId: string | null = null;
    try {
      const [newest] = await useWorkbench().jobs.list({ active: true, kind: DEFERRED_CHAT_KIND, limit: 1 });
      runId = newest?.runId ?? null;
    } catch {
      // Nothing to pick up is the same as an empty list: the view stays as it was.
      return;
    }
    if (runId && run.phase.value === 'idle') await run.follow(runId);
  }

  /** Shows a recorded run; a deferred one still pending is followed until it ends. */
  function show(record: RunRecord): void {
    if (record.status === 'pending' && record.endpoint === 'chat.completions' && record.request.body && (record.request.body as { deferred?: unknown }).deferred === true) {
      void run.follow(record.id);
      return;
    }
    run.show(record);
  }

  return { ...run, send, show, resumeDeferred };
});
