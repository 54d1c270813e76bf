import { describe, expect, it } from 'vitest';
import {
  defaultResponseFormat,
  responseFormatFromChat,
  responseFormatFromResponses,
  responseFormatProblems,
  toChatResponseFormat,
  toResponsesTextFormat,
  type ResponseFormatSpec,
} from '../../../../shared/json-schema/response-format';

const schemaSpec: ResponseFormatSpec = { type: 'json_schema', name: 'city', strict: false, schemaText: '{"type":"object"}' };

describe('json-schema/response-format', () => {
  describe('toChatResponseFormat() / toResponsesTextFormat()', () => {
    it('omits plain text, and nests the schema for chat but not for Responses', () => {
      expect(toChatResponseFormat(defaultResponseFormat())).toBeUndefined();
      expect(toResponsesTextFormat(defaultResponseFormat())).toBeUndefined();
      expect(toChatResponseFormat({ ...schemaSpec, type: 'json_object' })).toEqual({ type: 'json_object' });
      expect(toChatResponseFormat(schemaSpec)).toEqual({ type: 'json_schema', json_schema: { name: 'city', schema: { type: 'object' }, strict: false } });
      expect(toResponsesTextFormat(schemaSpec)).toEqual({ type: 'json_schema', name: 'city', schema: { type: 'object' }, strict: false });
    });
  });

  describe('responseFormatProblems()', () => {
    it('needs a valid name and a usable schema for json_schema only', () => {
      expect(responseFormatProblems(schemaSpec)).toEqual([]);
      expect(responseFormatProblems({ ...schemaSpec, type: 'json_object', schemaText: '' })).toEqual([]);
      expect(responseFormatProblems({ ...schemaSpec, name: '', schemaText: '' })).toEqual([
        'The schema name must be 1-64 letters, digits, underscores or dashes.',
        'Response schema: Paste a JSON schema for json_schema output.',
      ]);
    });
  });

  describe('responseFormatFromChat() / responseFormatFromResponses()', () => {
    it('reads back what was sent', () => {
      const pretty = { ...schemaSpec, schemaText: '{\n  "type": "object"\n}' };
      expect(responseFormatFromChat(toChatResponseFormat(schemaSpec))).toEqual(pretty);
      expect(responseFormatFromResponses(toResponsesTextFormat(schemaSpec))).toEqual(pretty);
      expect(responseFormatFromChat(undefined)).toEqual(defaultResponseFormat());
    });
  });
});
