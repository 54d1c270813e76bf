/**
 * Code export for a recorded transcription: a multipart upload like Files' (the form fields, then
 * the audio `file` last, read from the current folder under its recorded name), so curl and plain
 * Python / TypeScript reuse the upload snippets. Neither official SDK has a speech-to-text method
 * for this service; the voice code export (shared/codegen/voice-*.ts) is to replace this.
 */
import type { CodeExporter, ExportResult } from '../types';
import { UPLOAD_EXPORTER } from '../files/codegen';

const noSdk = (): ExportResult => ({ unsupported: 'No official SDK has a speech-to-text call for this service: use the Python or TypeScript tab (plain HTTP).' });

export const transcriptionExporter: CodeExporter = {
  curl: UPLOAD_EXPORTER.curl,
  python: UPLOAD_EXPORTER.python,
  typescript: UPLOAD_EXPORTER.typescript,
  'python-sdk': noSdk,
  'typescript-sdk': noSdk,
};
