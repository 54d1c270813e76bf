import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { provideWorkbench } from '@/api';
import { createFakeWorkbench } from '../fake-workbench';
import { useChatFormStore } from '@/families/chat/stores/chat-form';

beforeEach(() => {
  // The store keeps its form as a draft in main (an empty fake here).
  provideWorkbench(createFakeWorkbench());
  setActivePinia(createPinia());
});

function ready(): ReturnType<typeof useChatFormStore> {
  const form = useChatFormStore();
  form.model = 'svc-4';
  form.messages[0]!.content = 'Hi';
  return form;
}

describe('chat-form store', () => {
  describe('violations', () => {
    it('allows sending a complete form', () => {
      expect(ready().blockedReason).toBeNull();
    });

    it('blocks Send with the spec rule when temperature is out of range', () => {
      const form = ready();
      form.params.temperature = 2.5;
      expect(form.blockedReason).toBe('temperature must be between 0 and 2');
      expect(form.violationsFor('temperature').map((v) => v.message)).toEqual(['temperature must be between 0 and 2']);
    });

    it('blocks more than four stop sequences', () => {
      const form = ready();
      form.params.stop = ['a', 'b', 'c', 'd', 'e'];
      expect(form.violationsFor('stop')).toHaveLength(1);
      expect(form.blockedReason).toMatch(/stop/);
    });

    it('blocks Send with the tools editor\'s reason and with an invalid tool name', () => {
      const form = ready();
      form.params.tools = [{ name: 'get weather', description: '', parameters: { type: 'object' } }];
      expect(form.violationsFor('tools')[0]?.message).toMatch(/a name is 1-64 letters/);
      form.params.tools = [{ name: 'f', description: '', parameters: { type: 'object' } }];
      form.setToolEditorErrors(['"f" parameters: Not valid JSON: Unexpected end of input']);
      expect(form.blockedReason).toBe('"f" parameters: Not valid JSON: Unexpected end of input');
    });

    it('asks for a model and for a message before sending', () => {
      const form = useChatFormStore();
      expect(form.violations.map((v) => v.message)).toContain('write a message to send');
      expect(form.violationsFor('model')).not.toHaveLength(0);
    });
  });

  describe('request', () => {
    it('includes only the parameters that were set, plus json_schema and tools', () => {
      const form = ready();
      form.params.maxCompletionTokens = 100;
      form.params.stop = ['END', ''];
      form.params.responseFormat = 'json_schema';
      form.params.jsonSchemaName = 'answer';
      form.params.jsonSchemaText = '{"type":"object"}';
      form.params.tools = [{ name: 'f', description: '', parameters: { type: 'object' } }];
      form.params.stream = false;
      expect(form.request).toEqual({
        model: 'svc-4',
        messages: [{ role: 'user', content: 'Hi' }],
        max_completion_tokens: 100,
        stop: ['END'],
        response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' }, strict: true } },
        tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
        stream: false,
      });
    });

    it('turns live search on with citations, and reads it back from a recorded request', () => {
      const form = ready();
      form.params.search = true;
      expect(form.request.search_parameters).toEqual({ mode: 'on', return_citations: true });
      form.loadRequest({ model: 'svc-4', messages: [{ role: 'user', content: 'Q' }], search_parameters: { mode: 'off' } });
      expect(form.params.search).toBe(false);
      form.loadRequest({ model: 'svc-4', messages: [{ role: 'user', content: 'Q' }], search_parameters: { mode: 'auto' } });
      expect(form.params.search).toBe(true);
    });

    it('sends a deferred request without stream fields', () => {
      const form = ready();
      form.params.deferred = true;
      expect(form.request).toEqual({ model: 'svc-4', messages: [{ role: 'user', content: 'Hi' }], deferred: true });
    });
  });

  describe('moveMessage()', () => {
    it('reorders messages up and down and ignores moves past the ends', () => {
      const form = ready();
      form.addMessage('assistant', 'Hello');
      form.addMessage('user', 'Again');
      const [a, b, c] = form.messages.map((m) => m.id);
      form.moveMessage(c!, -1);
      form.moveMessage(a!, -1);
      expect(form.messages.map((m) => m.content)).toEqual(['Hi', 'Again', 'Hello']);
      form.moveMessage(b!, 1);
      expect(form.messages.map((m) => m.id)).toEqual([a, c, b]);
    });
  });

  describe('loadRequest()', () => {
    it('restores model, system prompt, messages and parameters from a recorded request', () => {
      const form = useChatFormStore();
      const recorded = {
        model: 'svc-3-mini',
        messages: [
          { role: 'system', content: 'Sys' },
          { role: 'user', content: 'Q' },
          { role: 'tool', content: '42', tool_call_id: 'call_1' },
        ],
        temperature: 0.2,
        stop: ['x'],
        stream: true,
        stream_options: { include_usage: false },
      };
      form.loadRequest(recorded);
      expect(form.model).toBe('svc-3-mini');
      expect(form.systemPrompt).toBe('Sys');
      expect(form.messages.map(({ role, content, toolCallId }) => ({ role, content, toolCallId }))).toEqual([
        { role: 'user', content: 'Q', toolCallId: undefined },
        { role: 'tool', content: '42', toolCallId: 'call_1' },
      ]);
      // Sending it again sends what was recorded.
      expect(form.request).toEqual(recorded);
    });
  });
});
