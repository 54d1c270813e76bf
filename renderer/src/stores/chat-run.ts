/**
 * The Chat playground's current run: a text run over `chat.send` (see use-text-run.ts for what
 * it holds and how streamed text is published once per frame).
 */
import { defineStore } from 'pinia';
import type { ChatSendInput } from '@shared/contract/chat';
import type { ChatRequest } from '@shared/wire/chat';
import { useWorkbench } from '../api';
import { useTextRun } from '../composables/use-text-run';

export type { RunPhase } from '../composables/use-text-run';

export const useChatRunStore = defineStore('chat-run', () => {
  const run = useTextRun<ChatSendInput>((input, onChunk) => useWorkbench().chat.send(input, onChunk));

  /** Starts a run; resolves when it has ended (never rejects). */
  async function send(request: ChatRequest): Promise<void> {
    // ChatRequest is the wire type; the contract's schema is the same shape, open to extra fields.
    await run.send({ request: request as unknown as ChatSendInput['request'] });
  }

  return { ...run, send };
});
