/**
 * The tool loop of a playground, independent of the interface: answer the pending calls once
 * (by hand), or keep answering them with each tool's saved reply until the model stops calling
 * tools, a call has no saved reply, the user cancels, or `maxTurns` is reached.
 */
import { onScopeDispose, ref } from 'vue';
import type { PendingCall } from '@shared/tools/pending-calls';
import type { ToolReply } from '@shared/tools/replies';
import type { ToolSpec } from '@shared/tools/tool-spec';

export interface UseToolLoopOptions {
  /** The calls the last finished run is waiting on (empty when none). */
  pendingCalls: () => PendingCall[];
  tools: () => ToolSpec[];
  /** Sends the next request with these replies; resolves when that run has ended. */
  continueWith: (replies: ToolReply[]) => Promise<void>;
  /** Whether the last run ended well enough to go on (e.g. not failed or stopped). */
  lastRunOk?: () => boolean;
  /** Stops the run in flight (Cancel during a loop). */
  stop?: () => Promise<void> | void;
  maxTurns?: number;
}

export const DEFAULT_MAX_TURNS = 10;

/** Saved replies for these calls, or the name of the first tool that has none. */
export function savedReplies(calls: readonly PendingCall[], tools: readonly ToolSpec[]): { replies: ToolReply[] } | { missing: string } {
  const replies: ToolReply[] = [];
  for (const call of calls) {
    const saved = tools.find((t) => t.name === call.name)?.savedReply;
    if (!saved) return { missing: call.name };
    replies.push({ callId: call.id, output: saved });
  }
  return { replies };
}

export function useToolLoop(opts: UseToolLoopOptions) {
  const maxTurns = opts.maxTurns ?? DEFAULT_MAX_TURNS;
  const looping = ref(false);
  /** Turns answered in the current (or last) loop. */
  const turn = ref(0);
  /** Why the last loop ended, when that is worth saying. */
  const note = ref<string | null>(null);
  let cancelled = false;

  /** Answers the pending calls once with the user's replies. */
  async function answer(replies: ToolReply[]): Promise<void> {
    note.value = null;
    turn.value = 0;
    await opts.continueWith(replies);
  }

  /** Answers with saved replies until the model stops calling tools (or another stop reason). */
  async function loop(): Promise<void> {
    if (looping.value) return;
    looping.value = true;
    cancelled = false;
    turn.value = 0;
    note.value = null;
    try {
      for (;;) {
        const calls = opts.pendingCalls();
        if (calls.length === 0) {
          note.value = turn.value ? `Done after ${turn.value} turn${turn.value === 1 ? '' : 's'}: the model answered without calling a tool.` : null;
          return;
        }
        if (turn.value >= maxTurns) {
          note.value = `Stopped after ${maxTurns} turns: the model was still calling tools.`;
          return;
        }
        const saved = savedReplies(calls, opts.tools());
        if ('missing' in saved) {
          note.value = `Stopped: ${saved.missing} has no saved reply. Answer it by hand or save a reply in the tool.`;
          return;
        }
        turn.value++;
        await opts.continueWith(saved.replies);
        if (cancelled) {
          note.value = `Cancelled after ${turn.value} turn${turn.value === 1 ? '' : 's'}.`;
          return;
        }
        if (opts.lastRunOk && !opts.lastRunOk()) {
          note.value = `Stopped at turn ${turn.value}: the run did not complete.`;
          return;
        }
      }
    } finally {
      looping.value = false;
    }
  }

  /** Stops the loop after (or by stopping) the run in flight. */
  async function cancel(): Promise<void> {
    if (!looping.value) return;
    cancelled = true;
    await opts.stop?.();
  }

  onScopeDispose(() => {
    cancelled = true;
  });

  return { looping, turn, note, maxTurns, answer, loop, cancel };
}

export type ToolLoop = ReturnType<typeof useToolLoop>;
