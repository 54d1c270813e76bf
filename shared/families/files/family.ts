/** Files (`/v1/files`): every upload is a recorded run; the rest of the API is not recorded. */
import { filesContract } from './contract';
import { UPLOAD_EXPORTER } from './codegen';
import type { SharedFamily } from '../types';

export const filesFamily = {
  id: 'files',
  contract: { key: 'files', ops: filesContract },
  nav: { route: '/files', label: 'Files', icon: 'files', order: 100 },
  entry: 'upload',
  endpoints: {
    'files.upload': {
      label: 'Files · upload',
      entry: 'upload',
      method: 'POST',
      path: '/v1/files',
      input: 'none',
      output: 'none',
      rerun: null,
      structured: null,
      eventTimeline: false,
      // Multipart from a file on disk: shared/codegen/upload.ts writes its snippets.
      code: { kind: 'upload', sdk: 'openai', sdkMethod: 'files.create', toolLoop: false, exporter: UPLOAD_EXPORTER },
    },
  },
} as const satisfies SharedFamily;
