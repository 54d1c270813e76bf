/**
 * Code export for a recorded custom-voice request. A clone is multipart (metadata fields, then the
 * clip as `file`), written by the upload exporters of Files (curl, Python standard library,
 * TypeScript fetch). An edit (PATCH, JSON) and a delete are written for curl. The SDK tabs and the
 * plain-language tabs of edit/delete say they are not written yet: the voice code export
 * (shared/codegen/voice-*.ts) is where they belong.
 */
import type { CapturedRequest } from '../../contract/runs';
import { toCurl } from '../../codegen/curl';
import { isUpload, uploadCurl, uploadPython, uploadTypeScript } from '../files/codegen';
import type { CodeExporter, ExportResult } from '../types';

const NOT_YET = 'Not written for custom voices yet: use the curl tab.';
const NO_SDK = 'The official SDKs have no custom-voice methods: use the curl, Python or TypeScript tab.';

function byKind(multipart: (r: CapturedRequest) => string, other: ((r: CapturedRequest) => string) | null) {
  return (request: CapturedRequest): ExportResult => {
    if (isUpload(request)) return { code: multipart(request) };
    return other ? { code: other(request) } : { unsupported: NOT_YET };
  };
}

export const VOICES_EXPORTER: CodeExporter = {
  curl: (request, opts) => byKind((r) => uploadCurl(r, opts), (r) => toCurl(r, opts))(request),
  python: (request, opts) => byKind((r) => uploadPython(r, opts), null)(request),
  'python-sdk': () => ({ unsupported: NO_SDK }),
  typescript: (request, opts) => byKind((r) => uploadTypeScript(r, opts), null)(request),
  'typescript-sdk': () => ({ unsupported: NO_SDK }),
};
