/**
 * How a Python snippet reads an answer, per endpoint, from parsed JSON (dicts): `output_text(data)`
 * for a whole answer and a delta expression over one stream `event`. SDK answers are turned into
 * dicts with model_dump() where a snippet needs these.
 */
import type { EndpointKind } from './endpoint';

const TEXT: Record<EndpointKind, string[]> = {
  chat: [
    'return "\\n\\n".join(',
    '    choice["message"].get("content") or json.dumps(choice["message"].get("tool_calls"))',
    '    for choice in data["choices"]',
    ')',
  ],
  responses: [
    'parts = []',
    'for item in data["output"]:',
    '    if item["type"] == "message":',
    '        parts += [part["text"] for part in item["content"] if part["type"] == "output_text"]',
    '    elif item["type"] == "function_call":',
    '        parts.append(f"{item[\'name\']}({item[\'arguments\']})")',
    'return "\\n".join(parts)',
  ],
  'responses-get': [],
  'responses-compact': ['return json.dumps(data, indent=2)'],
  'responses-delete': ['return json.dumps(data, indent=2)'],
  messages: [
    'parts = []',
    'for block in data["content"]:',
    '    if block["type"] == "text":',
    '        parts.append(block["text"])',
    '    elif block["type"] == "tool_use":',
    '        parts.append(f"{block[\'name\']}({json.dumps(block[\'input\'])})")',
    'return "\\n".join(parts)',
  ],
  completions: ['return "\\n\\n".join(choice["text"] for choice in data["choices"])'],
  complete: ['return data["completion"]'],
  other: ['return data if isinstance(data, str) else json.dumps(data, indent=2)'],
};
TEXT['responses-get'] = TEXT.responses;

const DELTA: Record<EndpointKind, string> = {
  chat: '((event.get("choices") or [{}])[0].get("delta") or {}).get("content")',
  responses: 'event.get("delta") if event.get("type") == "response.output_text.delta" else None',
  'responses-get': 'event.get("delta") if event.get("type") == "response.output_text.delta" else None',
  'responses-compact': 'json.dumps(event) + "\\n"',
  'responses-delete': 'json.dumps(event) + "\\n"',
  messages:
    '(event.get("delta") or {}).get("text") if event.get("type") == "content_block_delta" else None',
  completions: '(event.get("choices") or [{}])[0].get("text")',
  complete: 'event.get("completion")',
  other: 'json.dumps(event) + "\\n"',
};

/** `def output_text(data): ...` for the endpoint's answer. */
export function pyOutputTextFunction(kind: EndpointKind): string[] {
  return [
    'def output_text(data):',
    '    """The answer\'s text (tool calls shown as name(arguments))."""',
    ...TEXT[kind].map((line) => `    ${line}`),
  ];
}

/** An expression over a parsed stream `event` (a dict) giving the text it adds (or None). */
export function pyDeltaExpression(kind: EndpointKind): string {
  return DELTA[kind];
}
