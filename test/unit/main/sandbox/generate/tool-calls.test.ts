import { describe, expect, it } from 'vitest';
import { planToolCalls, properNouns } from '../../../../../main/sandbox/generate/tool-calls';
import { Rng } from '../../../../../main/sandbox/generate/rng';

const weather = {
  type: 'function' as const,
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

describe('tool-calls', () => {
  describe('properNouns()', () => {
    it('finds capitalised names inside sentences but not sentence openers', () => {
      expect(properNouns('What is the weather in Lisbon today? Please compare it with San Francisco.')).toEqual(['Lisbon', 'San Francisco']);
      expect(properNouns('Hello there.')).toEqual([]);
    });
  });

  describe('planToolCalls()', () => {
    it('asks for the place the user named', () => {
      const [call] = planToolCalls({ messages: [{ role: 'user', content: 'What is the weather in Lisbon today? Please use get_weather.' }], tools: [weather] }, new Rng(7));
      expect(JSON.parse(call!.arguments)).toEqual({ city: 'Lisbon' });
    });

    it('makes up a city when the prompt names none', () => {
      const [call] = planToolCalls({ messages: [{ role: 'user', content: 'use get_weather please' }], tools: [weather] }, new Rng(7));
      expect(typeof JSON.parse(call!.arguments).city).toBe('string');
    });
  });
});
