import { describe, expect, it } from 'vitest';
import {
  toChatToolChoice,
  toChatTools,
  toMessagesToolChoice,
  toMessagesTools,
  toResponsesToolChoice,
  toResponsesTools,
  toolChoiceFromChat,
  toolSpecsFromChat,
  type ToolSpec,
  withSavedReplies,
} from '../../../../shared/tools/tool-spec';

const weather: ToolSpec = {
  name: 'get_weather',
  description: 'Current weather',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  savedReply: '{"temp":21}',
  strict: true,
};
const bare: ToolSpec = { name: 'ping', description: '', parameters: { type: 'object', properties: {} } };

describe('tools/tool-spec', () => {
  describe('toChatTools()', () => {
    it('nests each tool under function, leaving out an empty description and the saved reply', () => {
      expect(toChatTools([weather, bare])).toEqual([
        { type: 'function', function: { name: 'get_weather', description: 'Current weather', parameters: weather.parameters, strict: true } },
        { type: 'function', function: { name: 'ping', parameters: bare.parameters } },
      ]);
    });
  });

  describe('toResponsesTools()', () => {
    it('writes flat function tools', () => {
      expect(toResponsesTools([weather, bare])).toEqual([
        { type: 'function', name: 'get_weather', description: 'Current weather', parameters: weather.parameters, strict: true },
        { type: 'function', name: 'ping', parameters: bare.parameters },
      ]);
    });
  });

  describe('toMessagesTools()', () => {
    it('writes name, description and input_schema (no strict flag)', () => {
      expect(toMessagesTools([weather, bare])).toEqual([
        { name: 'get_weather', description: 'Current weather', input_schema: weather.parameters },
        { name: 'ping', input_schema: bare.parameters },
      ]);
    });
  });

  describe('tool choice', () => {
    it('maps each choice to each interface', () => {
      const choices = ['auto', 'none', 'required', { name: 'get_weather' }] as const;
      expect(choices.map((c) => toChatToolChoice(c))).toEqual(['auto', 'none', 'required', { type: 'function', function: { name: 'get_weather' } }]);
      expect(choices.map((c) => toResponsesToolChoice(c))).toEqual(['auto', 'none', 'required', { type: 'function', name: 'get_weather' }]);
      expect(choices.map((c) => toMessagesToolChoice(c))).toEqual([{ type: 'auto' }, null, { type: 'any' }, { type: 'tool', name: 'get_weather' }]);
    });

    it('disables parallel tool use on Messages when parallel calls are off', () => {
      expect(toMessagesToolChoice('auto', false)).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    });

    it('reads a chat tool_choice back', () => {
      expect(toolChoiceFromChat(undefined)).toBe('auto');
      expect(toolChoiceFromChat('required')).toBe('required');
      expect(toolChoiceFromChat({ type: 'function', function: { name: 'f' } })).toEqual({ name: 'f' });
    });
  });

  describe('toolSpecsFromChat()', () => {
    it('round-trips chat tools (without saved replies, which are never sent)', () => {
      const { savedReply: _s, ...sent } = weather;
      expect(toolSpecsFromChat(toChatTools([weather, bare]))).toEqual([sent, bare]);
    });
  });

  describe('withSavedReplies()', () => {
    it('gives tools without a reply the saved reply of the same-named tool, and leaves the rest', () => {
      const base = { description: '', parameters: { type: 'object' } };
      const fromRequest = [{ name: 'a', ...base }, { name: 'b', ...base, savedReply: 'own' }, { name: 'c', ...base }];
      const saved = [{ name: 'a', ...base, savedReply: 'A' }, { name: 'b', ...base, savedReply: 'B' }, { name: 'z', ...base, savedReply: 'Z' }];
      expect(withSavedReplies(fromRequest, saved).map((t) => t.savedReply)).toEqual(['A', 'own', undefined]);
    });
  });
});
