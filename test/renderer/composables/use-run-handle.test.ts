/** useRunHandle: how a run store's run settles (done, error, cancelled, replaced) and Stop. */
import { describe, expect, it } from 'vitest';
import { ref, shallowRef } from 'vue';
import type { StreamHandle } from '@shared/contract/api';
import { WorkbenchFailure, type WorkbenchError } from '@shared/contract/errors';
import { useRunHandle } from '../../../renderer/src/composables/use-run-handle';

type Result = { runId: string; text: string };
type Phase = 'idle' | 'sending' | 'done' | 'error' | 'cancelled';

function deferredHandle(): StreamHandle<Result> & { resolve(r: Result): void; reject(e: unknown): void; cancelled: number } {
  let resolve!: (r: Result) => void;
  let reject!: (e: unknown) => void;
  const result = new Promise<Result>((res, rej) => ((resolve = res), (reject = rej)));
  const h = {
    streamId: 's',
    result,
    resolve,
    reject,
    cancelled: 0,
    async cancel() {
      h.cancelled++;
      reject(new WorkbenchFailure({ code: 'cancelled', message: 'Stopped.' }));
    },
  };
  return h;
}

function store() {
  const refs = { phase: ref<Phase>('sending'), result: shallowRef<Result | null>(null), runId: ref<string | null>(null), error: shallowRef<WorkbenchError | null>(null) };
  return { refs, run: useRunHandle<Result, Phase>(refs) };
}

describe('useRunHandle', () => {
  it('a result is shown: result, run id and phase done, after beforeDone', async () => {
    const { refs, run } = store();
    const h = deferredHandle();
    const order: string[] = [];
    const settled = run.settle(h, { beforeDone: (r) => void order.push(`before:${r.text}:${refs.phase.value}`) });
    h.resolve({ runId: 'r1', text: 'hello' });
    expect(await settled).toEqual({ runId: 'r1', text: 'hello' });
    expect(order).toEqual(['before:hello:sending']);
    expect([refs.phase.value, refs.runId.value, refs.result.value?.text, refs.error.value]).toEqual(['done', 'r1', 'hello', null]);
  });

  it('a failure is the error with phase error; Stop is cancelled with no error', async () => {
    const a = store();
    const h = deferredHandle();
    const failed: string[] = [];
    const settled = a.run.settle(h, { beforeFailed: (e) => void failed.push(e.code) });
    h.reject(new WorkbenchFailure({ code: 'api_error', message: 'prompt is too long' }));
    expect(await settled).toBeNull();
    expect([a.refs.phase.value, a.refs.error.value?.message, failed]).toEqual(['error', 'prompt is too long', ['api_error']]);

    const b = store();
    const h2 = deferredHandle();
    const stopped = b.run.settle(h2);
    await b.run.cancel();
    expect(await stopped).toBeNull();
    expect(h2.cancelled).toBe(1);
    expect([b.refs.phase.value, b.refs.error.value]).toEqual(['cancelled', null]);
    await b.run.cancel(); // nothing in flight: no second cancel
    expect(h2.cancelled).toBe(1);
  });

  it('a run replaced by a newer one settles to null and leaves the newer run’s refs alone', async () => {
    const { refs, run } = store();
    const old = deferredHandle();
    const first = run.settle(old);
    const next = deferredHandle();
    const second = run.settle(next);
    next.resolve({ runId: 'new', text: 'new' });
    await second;
    old.reject(new WorkbenchFailure({ code: 'api_error', message: 'late failure' }));
    expect(await first).toBeNull();
    expect([refs.phase.value, refs.runId.value, refs.error.value]).toEqual(['done', 'new', null]);
  });
});
