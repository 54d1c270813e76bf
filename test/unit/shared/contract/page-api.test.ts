// fromReplyApi, the page's side of the bridge: over a scripted reply API that has crossed the
// fake contextBridge (as the preload's window.workbench does), replies become values or
// WorkbenchFailures carrying the whole error, and a call's signal stays in the page.
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { opsContract } from '../../../../shared/contract/app';
import { call, event, session, stream } from '../../../../shared/contract/define';
import { WorkbenchFailure, type WorkbenchError } from '../../../../shared/contract/errors';
import type { ReplyApiFor, WireCallOptions } from '../../../../shared/contract/api';
import { fromReplyApi } from '../../../../shared/contract/page-api';
import type { CallReply } from '../../../../shared/contract/protocol';
import { acrossContextBridge } from '../../../integration/transports/fake-electron';

const demo = {
  ops: opsContract,
  demo: {
    get: call<{ n: number }>()(z.object({ n: z.number() })),
    run: stream<string, { done: true }>()(z.object({})),
    talk: session<string, { heard: number }>()(z.object({}), z.string()),
    ticked: event<{ at: number }>(),
  },
};
type Demo = typeof demo;

const unauthorized: WorkbenchError = { code: 'api_error', message: 'Incorrect API key provided.', status: 401, requestId: 'req-1' };
const invalid: WorkbenchError = { code: 'invalid_input', message: 'Bad message.', issues: [{ path: 'text', message: 'Required' }] };
const ok = (value: unknown): CallReply => ({ ok: true, value });
const failed = (error: WorkbenchError): CallReply => ({ ok: false, error });

/** A scripted reply API (the preload's side) and what the page asked of it. */
function scripted(replies: { get?: CallReply | Promise<CallReply>; result?: CallReply; send?: CallReply; cancel?: CallReply } = {}) {
  const calls: Array<{ input: unknown; options?: WireCallOptions }> = [];
  const cancels: unknown[] = [];
  const listeners: Array<(payload: { at: number }) => void> = [];
  const api = {
    ops: {
      cancel: async (input: unknown) => (cancels.push(input), replies.cancel ?? ok({ cancelled: true })),
      send: async () => ok(null),
      close: async () => ok(null),
    },
    demo: {
      get: (input: unknown, options?: WireCallOptions) => {
        calls.push({ input, options });
        return Promise.resolve(replies.get ?? ok({ n: 1 }));
      },
      run: () => ({
        streamId: 'stream-1',
        result: Promise.resolve(replies.result ?? ok({ done: true })),
        cancel: async () => replies.cancel ?? ok({ cancelled: true }),
      }),
      talk: () => ({
        id: 'session-1',
        result: Promise.resolve(replies.result ?? ok({ heard: 1 })),
        send: async () => replies.send ?? ok(null),
        close: async () => ok(null),
        cancel: async () => replies.cancel ?? ok({ cancelled: true }),
      }),
      onTicked: (callback: (payload: { at: number }) => void) => {
        listeners.push(callback);
        return () => listeners.splice(listeners.indexOf(callback), 1);
      },
    },
  } as unknown as ReplyApiFor<Demo>;
  // As in Electron: the page only ever sees the api after contextBridge has copied it.
  const page = fromReplyApi(acrossContextBridge(api), demo);
  return { page, calls, cancels, listeners };
}

async function rejection(promise: Promise<unknown>): Promise<WorkbenchFailure> {
  const outcome = await promise.then(
    () => null,
    (err: unknown) => err,
  );
  expect(outcome).toBeInstanceOf(WorkbenchFailure);
  return outcome as WorkbenchFailure;
}

describe('fromReplyApi', () => {
  it('resolves a call’s value and rejects its error as a WorkbenchFailure with every field', async () => {
    expect(await scripted().page.demo.get({ n: 1 })).toEqual({ n: 1 });
    const err = await rejection(scripted({ get: failed(unauthorized) }).page.demo.get({ n: 1 }));
    expect(err.error).toEqual(unauthorized);
    expect(err.message).toBe(unauthorized.message);
  });

  it('rejects a malformed reply as protocol, not as a value', async () => {
    const err = await rejection(scripted({ get: { value: { n: 1 } } as unknown as CallReply }).page.demo.get({ n: 1 }));
    expect(err.error.code).toBe('protocol');
  });

  it('keeps a call’s signal in the page: only a string op id crosses, an abort rejects and cancels that id', async () => {
    let answer!: (reply: CallReply) => void;
    const pending = new Promise<CallReply>((resolve) => (answer = resolve));
    const { page, calls, cancels } = scripted({ get: pending });
    const controller = new AbortController();
    const running = page.demo.get({ n: 2 }, { signal: controller.signal });
    expect(calls).toHaveLength(1);
    const opId = calls[0].options?.opId;
    expect(calls[0].options).toEqual({ opId: expect.stringMatching(/^[0-9a-f]{32}$/) });
    controller.abort();
    expect((await rejection(running)).error.code).toBe('cancelled');
    await vi.waitFor(() => expect(cancels).toEqual([{ id: opId }]));
    answer(ok({ n: 2 }));
  });

  it('never crosses for a call whose signal is already aborted', async () => {
    const { page, calls } = scripted();
    expect((await rejection(page.demo.get({ n: 3 }, { signal: AbortSignal.abort() }))).error.code).toBe('cancelled');
    expect(calls).toHaveLength(0);
  });

  it('a call with a live signal still rejects with main’s own error', async () => {
    const err = await rejection(scripted({ get: failed(unauthorized) }).page.demo.get({ n: 1 }, { signal: new AbortController().signal }));
    expect(err.error).toEqual(unauthorized);
  });

  it('unwraps a stream’s result and cancel', async () => {
    const handle = scripted().page.demo.run({}, () => {});
    expect(handle.streamId).toBe('stream-1');
    expect(await handle.result).toEqual({ done: true });
    await expect(handle.cancel()).resolves.toBeUndefined();
    const gone = failed({ code: 'not_found', message: 'gone' });
    const refused = scripted({ result: failed(unauthorized), cancel: gone }).page.demo.run({}, () => {});
    expect((await rejection(refused.result)).error).toEqual(unauthorized);
    expect((await rejection(refused.cancel())).error.code).toBe('not_found');
  });

  it('unwraps a session’s result, send, close and cancel', async () => {
    const fine = scripted().page.demo.talk({}, () => {});
    expect(fine.id).toBe('session-1');
    await expect(fine.send('hi')).resolves.toBeUndefined();
    await expect(fine.close()).resolves.toBeUndefined();
    expect(await fine.result).toEqual({ heard: 1 });
    const bad = scripted({ result: failed(unauthorized), send: failed(invalid) }).page.demo.talk({}, () => {});
    expect((await rejection(bad.send('hi'))).error).toEqual(invalid);
    expect((await rejection(bad.result)).error).toEqual(unauthorized);
  });

  it('passes event subscriptions through and offers exactly the contract’s methods, frozen', () => {
    const { page, listeners } = scripted();
    const seen: unknown[] = [];
    const off = page.demo.onTicked((payload) => seen.push(payload));
    listeners[0]({ at: 5 });
    off();
    expect(seen).toEqual([{ at: 5 }]);
    expect(listeners).toHaveLength(0);
    expect(Object.keys(page.demo).sort()).toEqual(['get', 'onTicked', 'run', 'talk']);
    expect(Object.isFrozen(page) && Object.isFrozen(page.demo)).toBe(true);
  });
});
