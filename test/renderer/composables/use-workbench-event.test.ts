import { describe, expect, it } from 'vitest';
import { effectScope } from 'vue';
import { provideWorkbench } from '@/api';
import { useWorkbenchEvent } from '@/composables/use-workbench-event';
import type { ConnectionsState } from '@shared/contract/connections';
import { createFakeWorkbench } from '../fake-workbench';

const state = (activeId: string): ConnectionsState => ({ activeId, profiles: [], keyStorage: { backend: 'file', warning: null }, sandbox: { key: 'k', port: 4010, preferredPort: 4010, preferredSource: 'default', configuredPort: null } });

describe('use-workbench-event', () => {
  describe('useWorkbenchEvent()', () => {
    it('delivers the event while its scope lives and unsubscribes when the scope stops', () => {
      const fake = createFakeWorkbench();
      provideWorkbench(fake);
      const seen: string[] = [];
      const scope = effectScope();
      scope.run(() => useWorkbenchEvent('connections', 'changed', (payload) => seen.push(payload.activeId)));
      fake.controls.emitConnectionsChanged(state('one'));
      scope.stop();
      fake.controls.emitConnectionsChanged(state('two'));
      expect(seen).toEqual(['one']);
    });

    it('outside a scope, stops through the function it returns', () => {
      const fake = createFakeWorkbench();
      provideWorkbench(fake);
      const seen: string[] = [];
      const stop = useWorkbenchEvent('connections', 'changed', (payload) => seen.push(payload.activeId));
      fake.controls.emitConnectionsChanged(state('one'));
      stop();
      stop();
      fake.controls.emitConnectionsChanged(state('two'));
      expect(seen).toEqual(['one']);
    });

    it('accepts only declared events with their payload type (compile-time)', () => {
      provideWorkbench(createFakeWorkbench());
      const scope = effectScope();
      scope.run(() => {
        // @ts-expect-error: connections declares no `removed` event
        expect(() => useWorkbenchEvent('connections', 'removed', () => {})).toThrow();
        // @ts-expect-error: `list` is a call, not an event
        expect(() => useWorkbenchEvent('connections', 'list', () => {})).toThrow();
        // @ts-expect-error: the payload is a ConnectionsState, which has no `n`
        useWorkbenchEvent('connections', 'changed', (payload: { n: number }) => payload.n);
      });
      scope.stop();
    });
  });
});
