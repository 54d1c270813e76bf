/**
 * One entry point for the inspector's code export: a recorded request in the chosen language, or
 * the reason that language cannot express it (no SDK method, a tool loop asked of curl). The
 * request's endpoint descriptor (shared/families) says who writes it: a family's own exporter
 * (uploads, images, videos), else the text exporters, which read the answer by the descriptor's
 * code kind (and write plain HTTP for a request no descriptor knows, e.g. GET /v1/models).
 */
import type { CapturedRequest } from '../contract/runs';
import { ENDPOINT_DESCRIPTORS, EXPORT_LANGS, endpointOfRequest, type CodeExporter, type ExportLang, type ExportResult } from '../families';
import { toCurl } from './curl';
import { endpointKind, pathOf, supportsToolLoop } from './endpoint';
import { toPython } from './python';
import { toPythonSdk } from './python-sdk';
import { hasTools, type CodegenOptions } from './request-parts';
import { toTypeScript } from './typescript';
import { toTypeScriptSdk } from './typescript-sdk';

export { EXPORT_LANGS, type ExportLang, type ExportResult };

export interface ExportOptions extends CodegenOptions {
  lang: ExportLang;
  /** Write a loop that runs the requested tools and sends their results back. */
  toolLoop?: boolean;
}

/** True when the request can be exported as a tool loop (an endpoint with tool calls, and tools in the body). */
export function canToolLoop(request: CapturedRequest): boolean {
  return supportsToolLoop(endpointKind(request.method, request.url)) && hasTools(request.body);
}

/** The family exporter the request's descriptor names, or null (the text exporters write it). */
function familyExporter(request: CapturedRequest): CodeExporter | null {
  const endpoint = endpointOfRequest(request.method, pathOf(request.url));
  return (endpoint && ENDPOINT_DESCRIPTORS[endpoint].code.exporter) || null;
}

/** The request as code in `opts.lang`; the key is read from `$WORKBENCH_API_KEY` (or `apiKeyEnv`), never inlined. */
export function exportCode(request: CapturedRequest, opts: ExportOptions): ExportResult {
  const exporter = familyExporter(request);
  if (exporter) return exporter[opts.lang](request, { apiKeyEnv: opts.apiKeyEnv, baseUrl: opts.baseUrl, shownApiKey: opts.shownApiKey });
  const loop = opts.toolLoop === true && canToolLoop(request);
  const program = { apiKeyEnv: opts.apiKeyEnv, baseUrl: opts.baseUrl, shownApiKey: opts.shownApiKey, toolLoop: loop };
  switch (opts.lang) {
    case 'curl':
      return loop ? { unsupported: 'A tool loop needs a program: choose Python or TypeScript.' } : { code: toCurl(request, opts) };
    case 'python':
      return { code: toPython(request, program) };
    case 'typescript':
      return { code: toTypeScript(request, program) };
    case 'python-sdk':
      return toPythonSdk(request, program);
    case 'typescript-sdk':
      return toTypeScriptSdk(request, program);
  }
}
