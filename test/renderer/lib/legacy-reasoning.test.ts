import { describe, expect, it } from 'vitest';
import { isReasoningModel, legacyReasoningNotice } from '@/lib/legacy-reasoning';

describe('legacy-reasoning', () => {
  describe('isReasoningModel()', () => {
    it('knows the reasoning model by id, dated id and by the aliases the catalogue lists for it', () => {
      const catalogue = [
        { id: 'svc-3-mini', aliases: ['mini', 'svc-3-mini-latest'] },
        { id: 'svc-4', aliases: ['svc-4-latest'] },
      ];
      expect(isReasoningModel('svc-3-mini')).toBe(true);
      expect(isReasoningModel('svc-3-mini-2026-01')).toBe(true);
      expect(isReasoningModel('mini', catalogue)).toBe(true);
      expect(isReasoningModel('mini')).toBe(false);
      expect(isReasoningModel('svc-4-latest', catalogue)).toBe(false);
      expect(isReasoningModel('')).toBe(false);
    });
  });

  it('words the refusal with the model and what to use instead', () => {
    expect(legacyReasoningNotice('mini')).toBe('mini is a reasoning model: the legacy endpoints do not support it. Use Chat or Responses.');
  });
});
