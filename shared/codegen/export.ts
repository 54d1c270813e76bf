/**
 * One entry point for the inspector's code export: a recorded request in the chosen language, or
 * the reason that language cannot express it (no SDK method, a tool loop asked of curl).
 */
import type { CapturedRequest } from '../contract/runs';
import { toCurl } from './curl';
import { endpointKind, supportsToolLoop } from './endpoint';
import { toPython } from './python';
import { toPythonSdk } from './python-sdk';
import { imagesCurl, imagesPython, imagesPythonSdk, imagesTypeScript, imagesTypeScriptSdk, isImageRequest } from './images';
import { hasTools, type CodegenOptions } from './request-parts';
import { toTypeScript } from './typescript';
import { toTypeScriptSdk } from './typescript-sdk';
import { isUpload, uploadCurl, uploadPython, uploadPythonSdk, uploadTypeScript, uploadTypeScriptSdk } from './upload';
import { isVideoCreate, VIDEO_SDK_GAP, videoCurl, videoPython, videoTypeScript } from './video';

export const EXPORT_LANGS = ['curl', 'python', 'python-sdk', 'typescript', 'typescript-sdk'] as const;
export type ExportLang = (typeof EXPORT_LANGS)[number];

export interface ExportOptions extends CodegenOptions {
  lang: ExportLang;
  /** Write a loop that runs the requested tools and sends their results back. */
  toolLoop?: boolean;
}

export type ExportResult = { code: string } | { unsupported: string };

/** True when the request can be exported as a tool loop (an endpoint with tool calls, and tools in the body). */
export function canToolLoop(request: CapturedRequest): boolean {
  return supportsToolLoop(endpointKind(request.method, request.url)) && hasTools(request.body);
}

/** The request as code in `opts.lang`; the key is read from `$WORKBENCH_API_KEY` (or `apiKeyEnv`), never inlined. */
export function exportCode(request: CapturedRequest, opts: ExportOptions): ExportResult {
  if (isUpload(request)) return exportUpload(request, opts);
  if (isVideoCreate(request)) return exportVideo(request, opts);
  if (isImageRequest(request)) return { code: IMAGE_EXPORTERS[opts.lang](request, opts) };
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

/** A recorded upload (multipart described) in `opts.lang`: every language has one. */
function exportUpload(request: CapturedRequest, opts: ExportOptions): ExportResult {
  switch (opts.lang) {
    case 'curl':
      return { code: uploadCurl(request, opts) };
    case 'python':
      return { code: uploadPython(request, opts) };
    case 'python-sdk':
      return { code: uploadPythonSdk(request, opts) };
    case 'typescript':
      return { code: uploadTypeScript(request, opts) };
    case 'typescript-sdk':
      return { code: uploadTypeScriptSdk(request, opts) };
  }
}

/** A recorded video create: the create, the polling loop and the download, in plain HTTP. */
function exportVideo(request: CapturedRequest, opts: ExportOptions): ExportResult {
  switch (opts.lang) {
    case 'curl':
      return { code: videoCurl(request, opts) };
    case 'python':
      return { code: videoPython(request, opts) };
    case 'typescript':
      return { code: videoTypeScript(request, opts) };
    case 'python-sdk':
    case 'typescript-sdk':
      return { unsupported: VIDEO_SDK_GAP };
  }
}

/** A recorded image generation or edit: the request, then every image saved at once (images.ts). */
const IMAGE_EXPORTERS: Record<ExportLang, (request: CapturedRequest, opts: CodegenOptions) => string> = {
  curl: imagesCurl,
  python: imagesPython,
  'python-sdk': imagesPythonSdk,
  typescript: imagesTypeScript,
  'typescript-sdk': imagesTypeScriptSdk,
};
