/**
 * How a TypeScript snippet reads an answer, per endpoint: `outputText(data)` for a whole answer
 * and a delta expression over one parsed stream `event`. The JSON is the same whether it came
 * from fetch or from an SDK, so plain and SDK snippets share these.
 */
import type { EndpointKind } from './endpoint';

const TEXT: Record<EndpointKind, string[]> = {
  chat: [
    'return data.choices',
    '  .map((choice: any) => choice.message.content ?? JSON.stringify(choice.message.tool_calls))',
    '  .join("\\n\\n");',
  ],
  responses: [
    'return data.output',
    '  .flatMap((item: any) =>',
    '    item.type === "message"',
    '      ? item.content.filter((part: any) => part.type === "output_text").map((part: any) => part.text)',
    '      : item.type === "function_call" ? [`${item.name}(${item.arguments})`] : [],',
    '  )',
    '  .join("\\n");',
  ],
  'responses-get': [],
  'responses-compact': ['return JSON.stringify(data, null, 2);'],
  'responses-delete': ['return JSON.stringify(data, null, 2);'],
  messages: [
    'return data.content',
    '  .flatMap((block: any) =>',
    '    block.type === "text" ? [block.text] : block.type === "tool_use" ? [`${block.name}(${JSON.stringify(block.input)})`] : [],',
    '  )',
    '  .join("\\n");',
  ],
  completions: ['return data.choices.map((choice: any) => choice.text).join("\\n\\n");'],
  complete: ['return data.completion;'],
  other: ['return typeof data === "string" ? data : JSON.stringify(data, null, 2);'],
};
TEXT['responses-get'] = TEXT.responses;

const DELTA: Record<EndpointKind, string> = {
  chat: 'event.choices?.[0]?.delta?.content',
  responses: 'event.type === "response.output_text.delta" ? event.delta : undefined',
  'responses-get': 'event.type === "response.output_text.delta" ? event.delta : undefined',
  'responses-compact': 'JSON.stringify(event) + "\\n"',
  'responses-delete': 'JSON.stringify(event) + "\\n"',
  messages: 'event.type === "content_block_delta" && event.delta?.type === "text_delta" ? event.delta.text : undefined',
  completions: 'event.choices?.[0]?.text',
  complete: 'event.completion',
  other: 'JSON.stringify(event) + "\\n"',
};

/** `function outputText(data: any): string { ... }` for the endpoint's answer. */
export function tsOutputTextFunction(kind: EndpointKind): string[] {
  return [
    '// The answer\'s text (tool calls shown as name(arguments)).',
    'function outputText(data: any): string {',
    ...TEXT[kind].map((line) => `  ${line}`),
    '}',
  ];
}

/** An expression over a parsed stream `event` giving the text it adds (or undefined). */
export function tsDeltaExpression(kind: EndpointKind): string {
  return DELTA[kind];
}
