import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { provideWorkbench } from '@/api';
import { createFakeWorkbench } from '../fake-workbench';
import { useMessagesFormStore } from '@/families/messages/stores/messages-form';

beforeEach(() => {
  // The store keeps its form as a draft in main (an empty fake here).
  provideWorkbench(createFakeWorkbench());
  setActivePinia(createPinia());
});

describe('messages-form store', () => {
  describe('appendToolTurn()', () => {
    it('replaces an empty trailing user turn with the assistant blocks and a turn of tool results', () => {
      const form = useMessagesFormStore();
      form.model = 'svc-4';
      form.turns[0]!.blocks = [{ id: 100, kind: 'text', text: 'Weather?' }];
      form.addTurn('user');
      const toolUse = { type: 'tool_use' as const, id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } };
      form.appendToolTurn([{ type: 'text', text: 'Checking.' }, toolUse], [{ callId: 'toolu_1', output: '{"t": 3}' }]);
      expect(form.request.messages).toEqual([
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }, toolUse] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '{"t": 3}' }] },
      ]);
      expect(form.blockedReason).toBeNull();
    });
  });

  describe('violations', () => {
    it('names a tool_result that answers no earlier tool_use, and a missing max_tokens', () => {
      const form = useMessagesFormStore();
      form.model = 'svc-4';
      form.turns[0]!.blocks = [{ id: 100, kind: 'tool_result', toolUseId: 'toolu_x', content: '{}', isError: false }];
      form.params.maxTokens = null;
      const messages = form.violations.map((v) => v.message);
      expect(messages).toContain('max_tokens is required: the most tokens the reply may have');
      expect(messages.some((m) => m.includes('"toolu_x" does not match any tool_use block'))).toBe(true);
      expect(form.violationsFor('messages[0].content[0]')).toHaveLength(1);
    });
  });

  describe('moveTurn() and removeTurn()', () => {
    it('reorders turns within bounds and removes by id', () => {
      const form = useMessagesFormStore();
      form.turns[0]!.blocks = [{ id: 100, kind: 'text', text: 'first' }];
      form.addTurn();
      form.turns[1]!.blocks = [{ id: 101, kind: 'text', text: 'second' }];
      form.moveTurn(form.turns[1]!.id, -1);
      form.moveTurn(form.turns[0]!.id, -1);
      expect(form.request.messages.map((m) => [m.role, m.content])).toEqual([
        ['assistant', 'second'],
        ['user', 'first'],
      ]);
      form.removeTurn(form.turns[0]!.id);
      expect(form.request.messages).toEqual([{ role: 'user', content: 'first' }]);
    });
  });
});
