import { describe, expect, it } from 'vitest';
import { assistantBlocks, buildMessagesRequest, conversationIsEmpty, defaultMessagesParams, formFromMessagesRequest, type MessagesForm } from '@/families/messages/lib/messages-form';

const form = (over: Partial<MessagesForm> = {}): MessagesForm => ({
  model: 'svc-4',
  systemMode: 'text',
  systemText: '',
  systemBlocks: [''],
  turns: [{ id: 1, role: 'user', blocks: [{ id: 2, kind: 'text', text: 'Hi' }] }],
  params: defaultMessagesParams(),
  ...over,
});

describe('messages-form', () => {
  describe('buildMessagesRequest()', () => {
    it('sends a picked file as a base64 image and a tool result with is_error', () => {
      const { request } = buildMessagesRequest(
        form({
          turns: [
            {
              id: 1,
              role: 'user',
              blocks: [
                { id: 2, kind: 'image', source: 'base64', url: '', mediaType: 'image/png', data: 'iVBORw0KGgo=', fileName: 'a.png' },
                { id: 3, kind: 'tool_result', toolUseId: 'toolu_1', content: 'boom', isError: true },
              ],
            },
          ],
        }),
      );
      expect(request.messages).toEqual([
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'boom', is_error: true },
          ],
        },
      ]);
    });

    it('leaves tools out for the "none" choice and sends disable_parallel_tool_use when parallel calls are off', () => {
      const tools = [{ name: 'f', description: '', parameters: { type: 'object', properties: {} } }];
      expect(buildMessagesRequest(form({ params: { ...defaultMessagesParams(), tools, toolChoice: 'none' } })).request.tools).toBeUndefined();
      const { request } = buildMessagesRequest(form({ params: { ...defaultMessagesParams(), tools, parallelToolCalls: false } }));
      expect(request.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    });

    it('reports tool names the service would refuse', () => {
      const tools = [{ name: 'bad name', description: '', parameters: { type: 'object', properties: {} } }];
      const { violations } = buildMessagesRequest(form({ params: { ...defaultMessagesParams(), tools } }));
      expect(violations[0]?.message).toMatch(/1-64 letters/);
    });
  });

  describe('assistantBlocks()', () => {
    it('keeps text editable, the model blocks verbatim, and drops empty text', () => {
      let id = 0;
      const blocks = assistantBlocks(
        [
          { type: 'thinking', thinking: 'hmm', signature: 's' },
          { type: 'text', text: '' },
          { type: 'tool_use', id: 't1', name: 'f', input: {} },
        ],
        () => ++id,
      );
      expect(blocks.map((b) => b.kind)).toEqual(['model', 'model']);
      expect(conversationIsEmpty([{ id: 9, role: 'assistant', blocks }])).toBe(false);
    });
  });
});

describe('formFromMessagesRequest()', () => {
  it('reads a recorded body back into the form that builds the same body', () => {
    const body = {
      model: 'svc-4',
      max_tokens: 200,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Look' }, { type: 'image', source: { type: 'url', url: 'https://x.test/a.png' } }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: { a: 1 } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '{"ok":true}' }] },
      ],
      system: [{ type: 'text', text: 'One' }, { type: 'text', text: 'Two' }],
      temperature: 0.3,
      stop_sequences: ['END'],
      tools: [{ name: 'f', description: 'does f', input_schema: { type: 'object', properties: { a: { type: 'number' } } } }],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
      stream: true,
    };
    let id = 0;
    expect(buildMessagesRequest(formFromMessagesRequest(body, () => ++id)).request).toEqual(body);
  });
});
