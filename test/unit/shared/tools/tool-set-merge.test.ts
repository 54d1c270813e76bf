import { describe, expect, it } from 'vitest';
import { mergeToolSets, sameToolSet } from '../../../../shared/tools/tool-set-merge';
import type { ToolSpec } from '../../../../shared/tools/tool-spec';

const tool = (name: string, description = name): ToolSpec => ({ name, description, parameters: { type: 'object' } });
const names = (r: ReturnType<typeof mergeToolSets>): string[] | string[][] => (r.ok ? r.tools.map((t) => t.name) : [r.conflicts]);

describe('tool-set-merge', () => {
  describe('mergeToolSets()', () => {
    it('keeps additions from both sides, theirs first, then mine', () => {
      expect(names(mergeToolSets([tool('a')], [tool('a'), tool('m')], [tool('a'), tool('t')]))).toEqual(['a', 't', 'm']);
    });

    it('takes a one-sided edit, removal or rename', () => {
      const base = [tool('a'), tool('b'), tool('c')];
      const mine = [tool('a', 'edited'), tool('b'), tool('renamed')];
      const theirs = [tool('a'), tool('c')];
      expect(mergeToolSets(base, mine, theirs)).toEqual({ ok: true, tools: [tool('a', 'edited'), tool('renamed')] });
    });

    it('reports each tool changed differently on both sides, by name', () => {
      const base = [tool('a'), tool('b')];
      expect(mergeToolSets(base, [tool('a', 'x'), tool('b', 'x')], [tool('a', 'y'), tool('b', 'y')])).toEqual({ ok: false, conflicts: ['a', 'b'] });
      expect(mergeToolSets([], [tool('n', 'mine')], [tool('n', 'theirs')])).toEqual({ ok: false, conflicts: ['n'] });
      expect(mergeToolSets([tool('')], [tool('', 'x')], [])).toEqual({ ok: false, conflicts: ['(unnamed tool)'] });
    });

    it('compares parameters whatever their key order', () => {
      const a1: ToolSpec = { name: 'a', description: '', parameters: { type: 'object', properties: {} } };
      const a2: ToolSpec = { name: 'a', description: '', parameters: { properties: {}, type: 'object' } };
      expect(mergeToolSets([a1], [a2], [a1, tool('t')])).toEqual({ ok: true, tools: [a2, tool('t')] });
      expect(sameToolSet([a1], [a2])).toBe(true);
      expect(sameToolSet([a1], [a1, a1])).toBe(false);
    });

    it('keeps my order when only I reordered, and theirs otherwise', () => {
      const base = [tool('a'), tool('b')];
      expect(names(mergeToolSets(base, [tool('b'), tool('a')], [tool('a'), tool('b'), tool('t')]))).toEqual(['b', 'a', 't']);
      expect(names(mergeToolSets(base, [tool('a'), tool('b'), tool('m')], [tool('b'), tool('a')]))).toEqual(['b', 'a', 'm']);
    });

    it('matches a repeated name by its occurrence', () => {
      const base = [tool('x', '1'), tool('x', '2')];
      expect(mergeToolSets(base, [tool('x', '1'), tool('x', '2 edited')], [tool('x', '1 edited'), tool('x', '2')])).toEqual({
        ok: true,
        tools: [tool('x', '1 edited'), tool('x', '2 edited')],
      });
    });
  });
});
