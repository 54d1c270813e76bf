import { describe, expect, it } from 'vitest';
import { chainInput, chainSegment, droppedMessages } from '../../../../main/families/responses/response-chain-input';
import type { ResponseNode } from '../../../../shared/families/responses/contract';
import type { RunRecord } from '../../../../shared/contract/runs';

function node(id: string, parentId: string | null, extra: Partial<ResponseNode> = {}): ResponseNode {
  return {
    id,
    kind: 'response',
    parentId,
    connectionId: 'c',
    runId: `run-${id}`,
    model: 'm',
    createdAt: 0,
    expiresAt: null,
    serverState: 'stored',
    status: 'completed',
    inputPreview: '',
    outputPreview: '',
    ...extra,
  };
}

function run(input: unknown, output: unknown[]): RunRecord {
  return { endpoint: 'responses', request: { method: 'POST', url: '', headers: {}, body: { input } }, output: { output } } as unknown as RunRecord;
}

const said = (text: string) => ({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
const cmpItem = { type: 'compaction', id: 'cmp_1', encrypted_content: 'x' };

describe('response-chain-input', () => {
  describe('chainSegment()', () => {
    it('orders the chain root first and stops at the latest compaction', () => {
      const lineage = [node('c', 'k'), node('k', 'b', { kind: 'compaction' }), node('b', 'a'), node('a', null)];
      expect(chainSegment(lineage).map((n) => n.id)).toEqual(['k', 'c']);
      expect(chainSegment([node('b', 'a'), node('a', null)]).map((n) => n.id)).toEqual(['a', 'b']);
    });
  });

  describe('chainInput()', () => {
    it('turns each turn into its input then its output, skipping reasoning and keeping calls', () => {
      const runs: Record<string, RunRecord> = {
        'run-a': run('Hi', [{ type: 'reasoning', summary: [] }, said('Hello')]),
        'run-b': run(
          [{ type: 'reasoning', id: 'rs' }, { role: 'user', content: 'Weather?' }],
          [{ type: 'function_call', call_id: 'c1', name: 'w', arguments: '{}' }],
        ),
        'run-c': run([{ type: 'function_call_output', call_id: 'c1', output: 'sunny' }], [said('It is sunny')]),
      };
      const items = chainInput([node('a', null), node('b', 'a'), node('c', 'b')], (id) => runs[id] ?? null);
      expect(items).toEqual([
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
        { role: 'user', content: 'Weather?' },
        { type: 'function_call', call_id: 'c1', name: 'w', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: 'sunny' },
        { role: 'assistant', content: 'It is sunny' },
      ]);
    });

    it('sends a compaction item once, even when the continuation also carries it', () => {
      const runs: Record<string, RunRecord> = { 'run-c': run([cmpItem, { role: 'user', content: 'Go on' }], [said('Going on')]) };
      const segment = [node('cmp_1', 'b', { kind: 'compaction', compactionItem: cmpItem }), node('c', 'cmp_1')];
      expect(chainInput(segment, (id) => runs[id] ?? null)).toEqual([cmpItem, { role: 'user', content: 'Go on' }, { role: 'assistant', content: 'Going on' }]);
    });

    it('skips a turn whose run was deleted from History', () => {
      expect(chainInput([node('a', null)], () => null)).toEqual([]);
    });
  });

  describe('droppedMessages()', () => {
    it('previews the first dropped items by role, clipped to 120 characters', () => {
      const long = 'word '.repeat(60);
      const dropped = droppedMessages([{ role: 'user', content: long }, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'kept' }], 2);
      expect(dropped).toHaveLength(2);
      expect(dropped[0].role).toBe('user');
      expect(dropped[0].preview).toHaveLength(120);
      expect(dropped[0].preview.endsWith('…')).toBe(true);
      expect(dropped[1]).toEqual({ role: 'assistant', preview: 'ok' });
    });
  });
});
