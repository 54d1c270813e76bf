/**
 * Shapes an in-memory WorkbenchApi like Electron's preload `window.workbench` (a reply API: every
 * promise resolves to `{ok, value}` or `{ok: false, error}`), so the screenshot page runs the
 * renderer's real Electron path (`fromReplyApi`) over the fake.
 */
import type { StreamHandle, SessionHandle, WorkbenchApi, WorkbenchReplyApi } from '../../../shared/contract/api';
import { contract } from '../../../shared/contract/index';
import { eventMethodName } from '../../../shared/contract/define';
import { WorkbenchFailure } from '../../../shared/contract/errors';
import type { CallReply } from '../../../shared/contract/protocol';

function asReply(promise: Promise<unknown>): Promise<CallReply> {
  return promise.then(
    (value) => ({ ok: true, value }),
    (err: unknown) => ({
      ok: false,
      error: err instanceof WorkbenchFailure ? err.error : { code: 'internal', message: err instanceof Error ? err.message : String(err) },
    }),
  );
}

export function asPreloadApi(api: WorkbenchApi): WorkbenchReplyApi {
  const source = api as unknown as Record<string, Record<string, (...args: unknown[]) => unknown>>;
  const out: Record<string, Record<string, unknown>> = {};
  for (const [family, ops] of Object.entries(contract)) {
    const target: Record<string, unknown> = {};
    for (const [method, op] of Object.entries(ops)) {
      const run = source[family][method];
      if (op.kind === 'call') target[method] = (input?: unknown) => asReply(Promise.resolve().then(() => run(input)));
      else if (op.kind === 'stream') {
        target[method] = (input: unknown, onChunk: unknown) => {
          const handle = run(input, onChunk) as StreamHandle<unknown>;
          return { streamId: handle.streamId, result: asReply(handle.result), cancel: () => asReply(handle.cancel()) };
        };
      } else if (op.kind === 'session') {
        target[method] = (input: unknown, onChunk: unknown) => {
          const handle = run(input, onChunk) as SessionHandle<unknown, unknown>;
          return {
            id: handle.id,
            result: asReply(handle.result),
            send: (message: unknown) => asReply(handle.send(message)),
            close: () => asReply(handle.close()),
            cancel: () => asReply(handle.cancel()),
          };
        };
      } else target[eventMethodName(method)] = source[family][eventMethodName(method)];
    }
    out[family] = target;
  }
  return out as unknown as WorkbenchReplyApi;
}
