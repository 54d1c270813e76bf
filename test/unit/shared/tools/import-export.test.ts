import { describe, expect, it } from 'vitest';
import { exportToolSpecs, importToolSpecs } from '../../../../shared/tools/import-export';
import type { ToolSpec } from '../../../../shared/tools/tool-spec';

const spec: ToolSpec = { name: 'f', description: 'does f', parameters: { type: 'object', properties: {} }, savedReply: '1' };

describe('tools/import-export', () => {
  describe('importToolSpecs()', () => {
    it('reads back what exportToolSpecs wrote', () => {
      expect(importToolSpecs(exportToolSpecs([spec]))).toEqual({ ok: true, specs: [spec] });
    });

    it('reads chat, Responses and Messages tools arrays, and {tools: [...]}', () => {
      const params = { type: 'object', properties: { a: { type: 'string' } } };
      const expected = { ok: true, specs: [{ name: 'f', description: '', parameters: params }] };
      expect(importToolSpecs(JSON.stringify([{ type: 'function', function: { name: 'f', parameters: params } }]))).toEqual(expected);
      expect(importToolSpecs(JSON.stringify({ tools: [{ type: 'function', name: 'f', parameters: params }] }))).toEqual(expected);
      expect(importToolSpecs(JSON.stringify([{ name: 'f', input_schema: params }]))).toEqual(expected);
    });

    it('explains a file that is not JSON or not a tools list', () => {
      expect(importToolSpecs('[{')).toEqual({ ok: false, message: 'The file is not valid JSON: Unexpected end of input, expected a property name in double quotes at line 1, column 3 (position 2)' });
      expect(importToolSpecs('{"a":1}')).toEqual({ ok: false, message: 'Expected a JSON array of tools (or an object with a "tools" array).' });
      expect(importToolSpecs('[{"description":"x"}]')).toEqual({ ok: false, message: 'Cannot import the tools: item 1 has no "name".' });
    });
  });
});
