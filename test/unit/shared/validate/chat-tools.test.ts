import { describe, expect, it } from 'vitest';
import { validateToolChoice, validateTools } from '../../../../shared/validate/chat-tools';

const fn = (name: string, extra: Record<string, unknown> = {}) => ({ type: 'function', function: { name, ...extra } });

describe('validate/chat-tools', () => {
  describe('validateTools()', () => {
    it('accepts up to 128 functions and refuses 129', () => {
      const many = Array.from({ length: 129 }, (_, i) => fn(`f${i}`));
      expect(validateTools(many.slice(0, 128))).toEqual([]);
      expect(validateTools(many)).toEqual([
        { field: 'tools', message: 'tools must have at most 128 functions (got 129)', kind: 'value' },
      ]);
    });

    it('refuses non-function tools, bad names and duplicates', () => {
      expect(validateTools([{ type: 'web_search' }])[0].message).toBe(
        'tools[0].type must be "function": only function tools are supported',
      );
      expect(validateTools([fn('has space')])[0].message).toBe(
        'tools[0].function.name must be 1-64 letters, digits, underscores or dashes',
      );
      expect(validateTools([fn('a'), fn('a')])[0].message).toBe(
        'tools[1].function.name "a" is defined twice; tool names must be unique',
      );
      expect(validateTools([{ type: 'function', function: {} }])[0].message).toBe('tools[0].function.name is required');
      expect(validateTools([fn('a', { parameters: 'x' })])[0].message).toBe('tools[0].function.parameters must be an object');
    });
  });

  describe('validateToolChoice()', () => {
    const tools = [fn('weather')];

    it('accepts the three strings and a named defined function', () => {
      for (const c of ['none', 'auto', 'required']) expect(validateToolChoice(c, tools)).toEqual([]);
      expect(validateToolChoice({ type: 'function', function: { name: 'weather' } }, tools)).toEqual([]);
    });

    it('refuses a function that is not defined, and required without tools', () => {
      expect(validateToolChoice({ type: 'function', function: { name: 'stocks' } }, tools)).toEqual([
        {
          field: 'tool_choice.function.name',
          message: 'tool_choice names the function "stocks", which is not defined in tools',
          kind: 'value',
        },
      ]);
      expect(validateToolChoice('required', [])[0].message).toBe('tool_choice "required" needs at least one tool in tools');
    });

    it('refuses other shapes', () => {
      expect(validateToolChoice('sometimes', tools)[0].kind).toBe('shape');
      expect(validateToolChoice({ type: 'function', name: 'weather' }, tools)[0].message).toBe(
        'tool_choice must be "none", "auto", "required" or {type: "function", function: {name}}',
      );
    });
  });
});
