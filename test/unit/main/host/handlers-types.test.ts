// Type-level guarantees of the handler registry, checked by `tsc -p tsconfig.node.json` (the type
// check fails if a line marked as an expected error ever compiles), plus the run-time twin
// for a map that slipped past the types (a registry built from an incomplete map refuses to
// start). That the built app answers every operation and validates its input is
// test/integration/host/app-registry.test.ts.
import { describe, expect, it } from 'vitest';
import { contract, type WorkbenchContract } from '../../../../shared/contract/index';
import type { HandlersFor } from '../../../../main/host/handlers';
import { createHost } from '../../../../main/host/host';
import { createFakeHandlers } from './fake-handlers';
import { testContract, type TestContract } from './probe-family';

const complete = createFakeHandlers().handlers;

const missingOne: HandlersFor<WorkbenchContract> = {
  ...complete,
  // @ts-expect-error: history.remove is missing, so this is not a HandlersFor<WorkbenchContract>.
  history: { search: complete.history.search, get: complete.history.get, request: complete.history.request, events: complete.history.events, facets: complete.history.facets, exportJsonl: complete.history.exportJsonl, session: complete.history.session, timeline: complete.history.timeline },
};

const _wrongOutput: HandlersFor<WorkbenchContract> = {
  ...complete,
  // @ts-expect-error: app.info must return an AppInfo, not a string.
  app: { info: () => 'not an AppInfo' },
};

const probeHandlers = createFakeHandlers().handlers;

const missingSession: HandlersFor<TestContract> = {
  ...probeHandlers,
  // @ts-expect-error: probe.echo (a session) is missing, so this is not a HandlersFor<TestContract>.
  probe: { wait: probeHandlers.probe.wait, sink: probeHandlers.probe.sink, flood: probeHandlers.probe.flood },
};

const _sessionAsStream: HandlersFor<TestContract> = {
  ...probeHandlers,
  probe: {
    ...probeHandlers.probe,
    // @ts-expect-error: a session handler gets a SessionContext (messages, awaitable emit), not a stream's.
    echo: async (_input, ctx: { streamId: string; emit(chunk: unknown): void }) => ({ label: ctx.streamId, count: 0, bytes: 0 }),
  },
};

describe('handlers', () => {
  describe('HandlersFor<WorkbenchContract>', () => {
    it('refuses at start-up a handler map missing an operation', () => {
      expect(() => createHost({ contract, handlers: missingOne })).toThrow(/No handler registered for history\.remove/);
    });

    it('refuses at start-up a handler map missing a session operation', () => {
      expect(() => createHost({ contract: testContract, handlers: missingSession })).toThrow(/No handler registered for probe\.echo/);
    });
  });
});
