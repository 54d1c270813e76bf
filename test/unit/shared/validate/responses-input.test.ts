import { describe, expect, it } from 'vitest';
import { validateInput } from '../../../../shared/validate/responses-input';

describe('validate/responses-input', () => {
  describe('validateInput()', () => {
    it('accepts every documented item kind', () => {
      expect(
        validateInput([
          { role: 'system', content: 'Be brief' },
          { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'x' }] },
          {
            role: 'user',
            content: [
              { type: 'input_text', text: 'Look' },
              { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'low' },
              { type: 'input_file', file_id: 'file-1' },
            ],
          },
          { type: 'message', role: 'assistant', id: 'msg_1', status: 'completed', content: [{ type: 'output_text', text: 'ok', annotations: [] }] },
          { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'thinking' }] },
          { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '{}' },
          { type: 'function_call_output', call_id: 'call_1', output: '{"ok":true}' },
          { type: 'compaction', id: 'cmp_1', encrypted_content: 'abc.def' },
          { type: 'web_search_call', id: 'ws_1', status: 'completed' },
        ]),
      ).toEqual([]);
      expect(validateInput('Hello')).toEqual([]);
    });

    it.each([
      [42, 'input must be a string or an array of input items'],
      [['hi'], 'input[0] must be an object (a message or an item with a type)'],
      [[{ content: 'hi' }], 'input[0].type is required (or give a role to send a message)'],
      [[{ type: 'shell_call' }], 'input[0].type must be one of "message", "function_call_output", "compaction", "function_call", "reasoning", "web_search_call"'],
      [[{ type: 'message', content: 'hi' }], 'input[0].role is required: "user", "assistant", "system" or "developer"'],
      [[{ role: 'tool', content: 'hi' }], 'input[0].role must be one of "user", "assistant", "system", "developer"'],
      [[{ role: 'user' }], 'input[0].content is required: a string or an array of content parts'],
      [[{ role: 'user', content: 5 }], 'input[0].content must be a string or an array of content parts'],
      [[{ role: 'user', content: ['hi'] }], 'input[0].content[0] must be a content part object with a type'],
      [[{ role: 'user', content: [{ text: 'hi' }] }], 'input[0].content[0].type is required'],
      [[{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], 'input[0].content[0].type must be one of "input_text", "input_image", "input_file", "output_text", "refusal"'],
      [[{ role: 'user', content: [{ type: 'input_text' }] }], 'input[0].content[0].text must be a string'],
      [[{ role: 'assistant', content: [{ type: 'refusal' }] }], 'input[0].content[0].refusal must be a string'],
      [[{ role: 'user', content: [{ type: 'input_image' }] }], 'input[0].content[0] needs an image_url or a file_id'],
      [[{ role: 'user', content: [{ type: 'input_image', image_url: 'x', detail: 'ultra' }] }], 'input[0].content[0].detail must be one of "auto", "low", "high"'],
      [[{ role: 'user', content: [{ type: 'input_file' }] }], 'input[0].content[0] needs a file_id, file_data (with filename) or file_url'],
      [[{ type: 'function_call_output', output: 'x' }], 'input[0].call_id is required'],
      [[{ type: 'function_call_output', call_id: 'c' }], "input[0].output is required: the function's result as a string"],
      [[{ type: 'function_call_output', call_id: 'c', output: 5 }], "input[0].output must be a string (the function's result)"],
      [[{ type: 'compaction', id: 'cmp_1' }], 'input[0].encrypted_content is required'],
      [[{ type: 'compaction', encrypted_content: 5 }], 'input[0].encrypted_content must be a string'],
      [[{ type: 'function_call', call_id: 'c', name: 'f' }], 'input[0].arguments is required'],
      [[{ type: 'reasoning', summary: 'x' }], 'input[0].summary must be an array'],
    ])('reports a shape error for %j', (input, message) => {
      expect(validateInput(input)).toEqual([expect.objectContaining({ message, kind: 'shape' })]);
    });
  });
});
