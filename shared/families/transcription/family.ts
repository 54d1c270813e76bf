/**
 * Transcription (`POST /v1/stt`): a multipart upload of one recording; History shows the upload
 * (the audio kept, playable offline) and the transcript. Code export: the upload snippets
 * (codegen.ts) until the voice code export replaces them.
 */
import type { SharedFamily } from '../types';
import { transcriptionExporter } from './codegen';

export const transcriptionFamily = {
  id: 'transcription',
  nav: { route: '/transcription', label: 'Transcription', icon: 'transcription', order: 120 },
  entry: 'upload',
  endpoints: {
    'transcription.transcribe': {
      label: 'Transcription · file',
      entry: 'upload',
      method: 'POST',
      path: '/v1/stt',
      input: 'none',
      output: 'none',
      rerun: null,
      structured: null,
      eventTimeline: false,
      code: { kind: 'stt-rest', sdk: null, sdkMethod: 'stt', toolLoop: false, exporter: transcriptionExporter },
    },
  },
} as const satisfies SharedFamily;
