import { describe, expect, it } from 'vitest';
import type { ResponseObject } from '../../../../../shared/wire/responses';
import { goneMessage, ResponseStore } from '../../../../../main/sandbox/responses/store';

const DAY = 86_400_000;
const entry = (id: string, team: string, createdMs: number) => ({
  team,
  response: { id } as ResponseObject,
  conversation: [{ role: 'user' as const, content: id }],
  createdMs,
});

describe('sandbox/responses/store', () => {
  describe('ResponseStore', () => {
    it('finds a response for its own team only', () => {
      const store = new ResponseStore();
      store.put(entry('r1', 'a', 0));
      expect(store.lookup('r1', 'a', 1).state).toBe('found');
      expect(store.lookup('r1', 'b', 1).state).toBe('unknown');
      expect(store.lookup('r2', 'a', 1).state).toBe('unknown');
    });

    it('forgets a response 30 days after creation and says it expired', () => {
      const store = new ResponseStore();
      store.put(entry('r1', 'a', 0));
      expect(store.lookup('r1', 'a', 30 * DAY - 1).state).toBe('found');
      expect(store.lookup('r1', 'a', 30 * DAY).state).toBe('expired');
      expect(store.lookup('r1', 'a', 30 * DAY + 1).state).toBe('expired');
    });

    it('sweeps expired responses when new ones are stored', () => {
      const store = new ResponseStore(1);
      store.put(entry('old', 'a', 0));
      store.put(entry('new', 'a', 2 * DAY));
      expect(store.lookup('old', 'a', 0).state).toBe('expired');
      expect(store.lookup('new', 'a', 2 * DAY).state).toBe('found');
    });

    it('deletes once, then reports deleted; remembers store: false ids', () => {
      const store = new ResponseStore();
      store.put(entry('r1', 'a', 0));
      expect(store.delete('r1', 'a', 0).state).toBe('found');
      expect(store.delete('r1', 'a', 0).state).toBe('deleted');
      store.markUnstored('a', 'r2');
      expect(store.lookup('r2', 'a', 0).state).toBe('unstored');
      expect(store.lookup('r2', 'b', 0).state).toBe('unknown');
    });
  });

  describe('goneMessage()', () => {
    it('says what happened and, for a chain, what to do instead', () => {
      expect(goneMessage('r1', 'expired', false)).toBe('Response r1 has expired: stored responses are deleted 30 days after creation.');
      expect(goneMessage('r1', 'deleted', true)).toBe(
        'previous_response_id r1 was deleted, so it can no longer be continued. Start a new conversation, or send the earlier turns in input.',
      );
    });
  });
});
