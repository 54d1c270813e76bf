/**
 * Checking a tool call's arguments against the called tool's parameters schema, for showing next
 * to the call: the pretty-printed text and what is wrong, in words.
 */
import { describeJsonError, parseJsonText } from '@shared/json-schema/parse-json';
import { validateJson } from '@shared/json-schema/validate';
import type { PendingCall } from '@shared/tools/pending-calls';
import type { ToolSpec } from '@shared/tools/tool-spec';

export interface ArgumentsCheck {
  pretty: string;
  ok: boolean;
  problems: string[];
}

export function checkArguments(call: PendingCall, tools: readonly ToolSpec[]): ArgumentsCheck {
  const parsed = parseJsonText(call.arguments);
  if (!parsed.ok) return { pretty: call.arguments, ok: false, problems: [`The arguments are not valid JSON: ${describeJsonError(parsed.error)}`] };
  const pretty = JSON.stringify(parsed.value, null, 2);
  const tool = tools.find((t) => t.name === call.name);
  if (!tool) return { pretty, ok: false, problems: [`${call.name} is not in the tool list, so its arguments cannot be checked.`] };
  const problems = validateJson(parsed.value, tool.parameters).map((v) => `${v.path ? v.path.slice(1) : 'arguments'}: ${v.message}`);
  return { pretty, ok: problems.length === 0, problems };
}
