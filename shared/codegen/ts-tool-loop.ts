/**
 * The tool loop of a TypeScript snippet: send, run the tools the answer asks for, send their
 * results back, until an answer without tool calls. Expects `body`, `send(payload)` and
 * `outputText(data)` to be defined above it; shared by the fetch and the SDK snippets.
 */
import type { EndpointKind } from './endpoint';
import { stringLiteral } from './literals';
import { MAX_TOOL_TURNS } from './tool-loop';

/** The editable tool stubs and runTool(). */
export function tsToolStubs(names: string[]): string[] {
  return [
    '// Your tools. The model asks for them by name with JSON arguments; replace each stub with the',
    '// real work. The string a tool returns is sent back to the model as its result.',
    'const tools: Record<string, (args: any) => string | Promise<string>> = {',
    ...names.map(
      (name) => `  ${stringLiteral(name)}: (args) => JSON.stringify({ note: ${stringLiteral(`stub: implement ${name}`)}, args }),`,
    ),
    '};',
    '',
    'async function runTool(name: string, args: any): Promise<string> {',
    '  const tool = tools[name];',
    '  const output = tool ? await tool(args) : JSON.stringify({ error: `no tool named ${name}` });',
    '  console.log(`[tool] ${name}(${JSON.stringify(args)}) -> ${output}`);',
    '  return output;',
    '}',
  ];
}

const TURNS: Partial<Record<EndpointKind, string[]>> = {
  chat: [
    'const messages: any[] = [...body.messages];',
    'let answer: string | null = null;',
    `for (let turn = 1; turn <= ${MAX_TOOL_TURNS} && answer === null; turn++) {`,
    '  const data = await send({ ...body, messages });',
    '  const message = data.choices[0].message;',
    '  messages.push(message);',
    '  if (!message.tool_calls?.length) {',
    '    answer = outputText(data);',
    '    break;',
    '  }',
    '  for (const call of message.tool_calls) {',
    '    const output = await runTool(call.function.name, JSON.parse(call.function.arguments || "{}"));',
    '    messages.push({ role: "tool", tool_call_id: call.id, content: output });',
    '  }',
    '}',
  ],
  responses: [
    '// Later turns continue the stored response: instructions and the first input are not repeated.',
    'const followUp: Record<string, unknown> = { ...body };',
    'delete followUp.input;',
    'delete followUp.instructions;',
    'let data = await send(body);',
    'let answer: string | null = null;',
    `for (let turn = 1; turn <= ${MAX_TOOL_TURNS}; turn++) {`,
    '  const calls = data.output.filter((item: any) => item.type === "function_call");',
    '  if (calls.length === 0) {',
    '    answer = outputText(data);',
    '    break;',
    '  }',
    '  const input: any[] = [];',
    '  for (const call of calls) {',
    '    const output = await runTool(call.name, JSON.parse(call.arguments || "{}"));',
    '    input.push({ type: "function_call_output", call_id: call.call_id, output });',
    '  }',
    '  data = await send({ ...followUp, previous_response_id: data.id, input });',
    '}',
  ],
  messages: [
    'const messages: any[] = [...body.messages];',
    'let answer: string | null = null;',
    `for (let turn = 1; turn <= ${MAX_TOOL_TURNS} && answer === null; turn++) {`,
    '  const data = await send({ ...body, messages });',
    '  messages.push({ role: "assistant", content: data.content });',
    '  const uses = data.content.filter((block: any) => block.type === "tool_use");',
    '  if (uses.length === 0) {',
    '    answer = outputText(data);',
    '    break;',
    '  }',
    '  const results: any[] = [];',
    '  for (const use of uses) {',
    '    results.push({ type: "tool_result", tool_use_id: use.id, content: await runTool(use.name, use.input) });',
    '  }',
    '  messages.push({ role: "user", content: results });',
    '}',
  ],
};

/** The loop itself, ending with the final answer printed. */
export function tsToolTurns(kind: EndpointKind): string[] {
  return [
    ...(TURNS[kind] ?? []),
    `console.log(answer ?? "Stopped after ${MAX_TOOL_TURNS} turns: the model kept asking for tools.");`,
  ];
}
