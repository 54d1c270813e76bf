/** Code export of recorded requests (curl, Python, TypeScript, with and without SDKs). Keys are never inlined. */
export { exportCode, canToolLoop, EXPORT_LANGS, type ExportLang, type ExportOptions, type ExportResult } from './export';
export { toCurl } from './curl';
export { API_KEY_ENV, type CodegenOptions } from './request-parts';
export { toPython } from './python';
export { toPythonSdk } from './python-sdk';
export { toTypeScript, type ProgramOptions } from './typescript';
export { toTypeScriptSdk } from './typescript-sdk';
export { endpointKind, sdkFamily, sdkGap, type EndpointKind } from './endpoint';
export { shellQuote } from './shell-quote';
