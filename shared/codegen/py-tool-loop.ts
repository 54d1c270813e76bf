/**
 * The tool loop of a Python snippet, over answers as dicts: send, run the tools the answer asks
 * for, send their results back, until an answer without tool calls. Expects `body`,
 * `send(payload)` and `output_text(data)` above it; shared by the urllib and the SDK snippets.
 */
import type { EndpointKind } from './endpoint';
import { stringLiteral } from './literals';
import { MAX_TOOL_TURNS } from './tool-loop';

/** The editable tool stubs and run_tool(). */
export function pyToolStubs(names: string[]): string[] {
  return [
    '# Your tools. The model asks for them by name with JSON arguments; replace each stub with the',
    '# real work. The string a tool returns is sent back to the model as its result.',
    'tools = {',
    ...names.map(
      (name) => `    ${stringLiteral(name)}: lambda args: json.dumps({"note": ${stringLiteral(`stub: implement ${name}`)}, "args": args}),`,
    ),
    '}',
    '',
    '',
    'def run_tool(name, args):',
    '    tool = tools.get(name)',
    '    output = tool(args) if tool else json.dumps({"error": f"no tool named {name}"})',
    '    print(f"[tool] {name}({json.dumps(args)}) -> {output}")',
    '    return output',
  ];
}

const TURNS: Partial<Record<EndpointKind, string[]>> = {
  chat: [
    'messages = list(body["messages"])',
    'answer = None',
    `for turn in range(${MAX_TOOL_TURNS}):`,
    '    data = send({**body, "messages": messages})',
    '    message = data["choices"][0]["message"]',
    '    messages.append(message)',
    '    if not message.get("tool_calls"):',
    '        answer = output_text(data)',
    '        break',
    '    for call in message["tool_calls"]:',
    '        output = run_tool(call["function"]["name"], json.loads(call["function"]["arguments"] or "{}"))',
    '        messages.append({"role": "tool", "tool_call_id": call["id"], "content": output})',
  ],
  responses: [
    '# Later turns continue the stored response: instructions and the first input are not repeated.',
    'follow_up = {key: value for key, value in body.items() if key not in ("input", "instructions")}',
    'data = send(body)',
    'answer = None',
    `for turn in range(${MAX_TOOL_TURNS}):`,
    '    calls = [item for item in data["output"] if item["type"] == "function_call"]',
    '    if not calls:',
    '        answer = output_text(data)',
    '        break',
    '    outputs = [',
    '        {"type": "function_call_output", "call_id": call["call_id"], "output": run_tool(call["name"], json.loads(call["arguments"] or "{}"))}',
    '        for call in calls',
    '    ]',
    '    data = send({**follow_up, "previous_response_id": data["id"], "input": outputs})',
  ],
  messages: [
    'messages = list(body["messages"])',
    'answer = None',
    `for turn in range(${MAX_TOOL_TURNS}):`,
    '    data = send({**body, "messages": messages})',
    '    messages.append({"role": "assistant", "content": data["content"]})',
    '    uses = [block for block in data["content"] if block["type"] == "tool_use"]',
    '    if not uses:',
    '        answer = output_text(data)',
    '        break',
    '    results = [',
    '        {"type": "tool_result", "tool_use_id": use["id"], "content": run_tool(use["name"], use["input"])}',
    '        for use in uses',
    '    ]',
    '    messages.append({"role": "user", "content": results})',
  ],
};

/** The loop itself, ending with the final answer printed. */
export function pyToolTurns(kind: EndpointKind): string[] {
  return [
    ...(TURNS[kind] ?? []),
    `print(answer if answer is not None else "Stopped after ${MAX_TOOL_TURNS} turns: the model kept asking for tools.")`,
  ];
}
