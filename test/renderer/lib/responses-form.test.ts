import { describe, expect, it } from 'vitest';
import { buildResponsesRequest, defaultResponsesForm, formFromResponsesRequest, instructionsBlockedReason, isReasoningModel, type ResponsesForm } from '@/families/responses/lib/responses-form';

const form = (over: Partial<ResponsesForm> = {}): ResponsesForm => ({ ...defaultResponsesForm(), model: 'svc-4', input: 'Hello', ...over });

describe('responses-form', () => {
  describe('buildResponsesRequest()', () => {
    it('sends a new chain with its instructions, store and stream on, and nothing left unset', () => {
      expect(buildResponsesRequest(form({ instructions: 'Be brief' }), { kind: 'new' })).toEqual({
        model: 'svc-4',
        input: 'Hello',
        instructions: 'Be brief',
        store: true,
        stream: true,
      });
    });

    it('continues by previous_response_id and leaves the instructions out', () => {
      const req = buildResponsesRequest(form({ instructions: 'Be brief' }), { kind: 'previous', id: 'resp-1' });
      expect(req.previous_response_id).toBe('resp-1');
      expect(req).not.toHaveProperty('instructions');
      expect(req.input).toBe('Hello');
    });

    it('continues from a compaction with its item then the user message, without previous_response_id', () => {
      const item = { type: 'compaction', id: 'cmp_1', encrypted_content: 'abc' };
      const req = buildResponsesRequest(form(), { kind: 'compaction', id: 'cmp_1', item });
      expect(req.input).toEqual([item, { role: 'user', content: 'Hello' }]);
      expect(req).not.toHaveProperty('previous_response_id');
    });

    it('asks for search with citations, and sends reasoning effort only to the reasoning model', () => {
      const f = form({ search: true, reasoningEffort: 'high', maxOutputTokens: 50, temperature: 0.5 });
      const plain = buildResponsesRequest(f, { kind: 'new' });
      expect(plain.search_parameters).toEqual({ mode: 'on', return_citations: true });
      expect(plain).not.toHaveProperty('reasoning');
      expect(plain.max_output_tokens).toBe(50);
      expect(plain.temperature).toBe(0.5);
      expect(buildResponsesRequest(f, { kind: 'new' }, { reasoningModel: true }).reasoning).toEqual({ effort: 'high', summary: 'auto' });
    });

    it('sends the tools in the flat Responses shape with the tool choice', () => {
      const req = buildResponsesRequest(
        form({ tools: [{ name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: {} } }], toolChoice: { name: 'get_weather' } }),
        { kind: 'new' },
      );
      expect(req.tools).toEqual([{ type: 'function', name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: {} } }]);
      expect(req.tool_choice).toEqual({ type: 'function', name: 'get_weather' });
    });

    it('sends text.format for a JSON schema', () => {
      const req = buildResponsesRequest(form({ format: { type: 'json_schema', name: 'answer', strict: true, schemaText: '{"type":"object"}' } }), { kind: 'new' });
      expect(req.text).toEqual({ format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true } });
    });
  });

  describe('isReasoningModel()', () => {
    it('recognises the reasoning model by id or alias', () => {
      expect(isReasoningModel('svc-3-mini')).toBe(true);
      expect(isReasoningModel('mini', ['svc-3-mini-latest'])).toBe(true);
      expect(isReasoningModel('svc-4')).toBe(false);
    });
  });

  describe('instructionsBlockedReason()', () => {
    it('explains why instructions are off only when continuing by id', () => {
      expect(instructionsBlockedReason({ kind: 'previous', id: 'r' })).toMatch(/refuses them with previous_response_id/);
      expect(instructionsBlockedReason({ kind: 'new' })).toBeNull();
      expect(instructionsBlockedReason({ kind: 'compaction', id: 'c', item: {} })).toBeNull();
    });
  });

  describe('formFromResponsesRequest()', () => {
    it('reads back every field the form builds, so a re-run sends the same request', () => {
      const f = form({
        instructions: 'Be brief', store: false, stream: false, maxOutputTokens: 64, temperature: 0.3, topP: 0.9, reasoningEffort: 'low', search: true,
        tools: [{ name: 'lookup', description: 'Find', parameters: { type: 'object', properties: {} } }], toolChoice: 'required', parallelToolCalls: false,
        format: { type: 'json_schema', name: 'answer', strict: true, schemaText: JSON.stringify({ type: 'object' }, null, 2) },
      });
      const sent = buildResponsesRequest(f, { kind: 'new' }, { reasoningModel: true });
      expect(formFromResponsesRequest(JSON.parse(JSON.stringify(sent)))).toEqual({ form: f, from: null });
    });

    it('names what a continuation continued from: the previous response or the compaction it carried', () => {
      expect(formFromResponsesRequest({ model: 'm', input: 'next', previous_response_id: 'resp-1' })).toMatchObject({ form: { input: 'next' }, from: 'resp-1' });
      const viaCompaction = formFromResponsesRequest({ model: 'm', input: [{ type: 'compaction', id: 'cmp_1', encrypted_content: 'x' }, { role: 'user', content: 'after' }] });
      expect(viaCompaction).toMatchObject({ form: { input: 'after' }, from: 'cmp_1' });
    });
  });
});
