import { describe, expect, it } from 'vitest';
import { WorkbenchFailure } from '../../../../shared/contract/errors';
import { decodeCursor, encodeCursor } from '../../../../main/store/history-cursor';

describe('history-cursor', () => {
  describe('encodeCursor()', () => {
    it('round-trips through decodeCursor and fits the contract limit of 200 characters', () => {
      const key = { createdAt: 1_731_000_000_123, id: 'a'.repeat(64) };
      const cursor = encodeCursor(key);
      expect(cursor.length).toBeLessThanOrEqual(200);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeCursor(cursor)).toEqual(key);
    });
  });

  describe('decodeCursor()', () => {
    it('throws invalid_input for anything it did not make', () => {
      for (const bad of ['', 'not-base64!', Buffer.from('{"a":1}').toString('base64url'), Buffer.from('[1.5,"x"]').toString('base64url'), Buffer.from('[1,""]').toString('base64url')]) {
        expect(() => decodeCursor(bad), bad).toThrow(WorkbenchFailure);
      }
    });
  });
});
