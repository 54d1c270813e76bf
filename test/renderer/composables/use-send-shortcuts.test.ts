import { afterEach, describe, expect, it } from 'vitest';
import { effectScope, type EffectScope } from 'vue';
import { useSendShortcuts } from '@/composables/use-send-shortcuts';

let scope: EffectScope | undefined;
afterEach(() => scope?.stop());

function listen(busy: boolean): string[] {
  const calls: string[] = [];
  scope = effectScope();
  scope.run(() => useSendShortcuts({ send: () => calls.push('send'), stop: () => calls.push('stop'), busy: () => busy }));
  return calls;
}
const press = (init: KeyboardEventInit): KeyboardEvent => {
  const e = new KeyboardEvent('keydown', { cancelable: true, ...init });
  globalThis.dispatchEvent(e);
  return e;
};

describe('use-send-shortcuts', () => {
  describe('useSendShortcuts()', () => {
    it('sends on Ctrl+Enter or Cmd+Enter and keeps the key from reaching the field', () => {
      const calls = listen(false);
      expect(press({ key: 'Enter', ctrlKey: true }).defaultPrevented).toBe(true);
      press({ key: 'Enter', metaKey: true });
      press({ key: 'Enter' });
      expect(calls).toEqual(['send', 'send']);
    });

    it('stops on Esc only while a run is busy', () => {
      const idle = listen(false);
      press({ key: 'Escape' });
      expect(idle).toEqual([]);
      scope!.stop();
      const busy = listen(true);
      press({ key: 'Escape' });
      expect(busy).toEqual(['stop']);
    });

    it('stops listening when its scope ends', () => {
      const calls = listen(false);
      scope!.stop();
      press({ key: 'Enter', ctrlKey: true });
      expect(calls).toEqual([]);
    });
  });
});
