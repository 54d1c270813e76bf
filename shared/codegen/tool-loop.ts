/**
 * What a tool-loop snippet needs from the recorded request, whatever the language: the names of
 * the tools to stub, and the body to send on each turn (without streaming, so each answer's tool
 * calls arrive whole).
 */
import { supportsToolLoop, type EndpointKind } from './endpoint';
import { bodyObject, hasTools } from './request-parts';

/** The most turns a generated loop takes before giving up. */
export const MAX_TOOL_TURNS = 10;

/** Function tool names defined in the body (chat nests them under `function`). */
export function toolNames(kind: EndpointKind, body: unknown): string[] {
  const tools = bodyObject(body)?.tools;
  if (!Array.isArray(tools)) return [];
  const names = tools.map((tool: unknown) => {
    const t = (tool ?? {}) as { type?: unknown; name?: unknown; function?: { name?: unknown } };
    if (kind === 'chat') return t.function?.name;
    if (kind === 'responses') return t.type === 'function' ? t.name : undefined;
    return t.name;
  });
  return [...new Set(names.filter((n): n is string => typeof n === 'string' && n !== ''))];
}

/** A tool loop was asked for, and the endpoint and the body's tools make one possible. */
export function wantsToolLoop(opts: { toolLoop?: boolean }, kind: EndpointKind, body: unknown): boolean {
  return opts.toolLoop === true && supportsToolLoop(kind) && hasTools(body);
}

/** The body without its streaming options. */
export function loopBody(body: unknown): Record<string, unknown> {
  const { stream: _stream, stream_options: _options, ...rest } = bodyObject(body) ?? {};
  return rest;
}
