/**
 * The `session.update` / `response.create` rules for output modalities, tools (function tools flat
 * as documented or chat-style nested, normalised flat; the service's own tool types kept as sent)
 * and tool_choice (wire-notes §2.2).
 */
import { isObject } from '../../../shared/validate/violations';
import type { Bad, Modality, SessionTool, ToolChoice } from './session-config';

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const OTHER_TOOLS = ['web_search', 'x_search', 'file_search', 'mcp'];

export function checkModalities(m: unknown, param: string, bad: Bad): Modality[] | undefined {
  if (!Array.isArray(m) || m.length === 0 || m.some((x) => x !== 'audio' && x !== 'text')) {
    bad(param, `${param} must be ["audio"] or ["text"]; got ${JSON.stringify(m)}`);
    return undefined;
  }
  // Audio always comes with its transcript: ["text","audio"] is audio.
  return m.includes('audio') ? ['audio'] : ['text'];
}

export function checkTools(raw: unknown, param: string, bad: Bad): SessionTool[] | undefined {
  if (!Array.isArray(raw)) {
    bad(param, `${param} must be an array`, 'invalid_type');
    return undefined;
  }
  if (raw.length > 128) bad(param, `${param} holds ${raw.length} tools; at most 128`);
  const out: SessionTool[] = [];
  const names = new Set<string>();
  raw.forEach((t, i) => {
    const p = `${param}[${i}]`;
    if (!isObject(t)) return bad(p, `${p} must be an object`, 'invalid_type');
    if (t.type === 'function') {
      // Flat (documented) or chat-style nested `function` (seen working): both normalised flat.
      const f = isObject(t.function) ? t.function : t;
      const where = isObject(t.function) ? `${p}.function` : p;
      if (typeof f.name !== 'string' || !TOOL_NAME.test(f.name)) return bad(`${where}.name`, `${where}.name must be 1-64 letters, digits, _ or -; got ${JSON.stringify(f.name ?? null)}`, f.name === undefined ? 'missing_required_parameter' : 'invalid_value');
      if (names.has(f.name)) return bad(`${where}.name`, `${where}.name '${f.name}' is used by another tool`);
      if (f.description !== undefined && typeof f.description !== 'string') return bad(`${where}.description`, `${where}.description must be a string`, 'invalid_type');
      if (f.parameters !== undefined && (!isObject(f.parameters) || (f.parameters.type !== undefined && f.parameters.type !== 'object'))) return bad(`${where}.parameters`, `${where}.parameters must be a JSON Schema object ({"type":"object", …})`);
      names.add(f.name);
      out.push({ type: 'function', name: f.name, description: (f.description as string | undefined) ?? '', parameters: (f.parameters as Record<string, unknown> | undefined) ?? { type: 'object', properties: {} } });
      return;
    }
    if (typeof t.type === 'string' && OTHER_TOOLS.includes(t.type)) {
      out.push({ ...t, type: t.type });
      return;
    }
    bad(`${p}.type`, `${p}.type must be one of function, ${OTHER_TOOLS.join(', ')}; got ${JSON.stringify(t.type ?? null)}`);
  });
  return out;
}

export function checkToolChoice(c: unknown, param: string, bad: Bad): ToolChoice | undefined {
  if (c === 'auto' || c === 'none' || c === 'required') return c;
  if (isObject(c) && c.type === 'function') {
    const name = isObject(c.function) ? c.function.name : c.name;
    if (typeof name === 'string' && name !== '') return { type: 'function', name };
  }
  bad(param, `${param} must be "auto", "none", "required" or {"type":"function","name":"…"}; got ${JSON.stringify(c)}`);
  return undefined;
}
