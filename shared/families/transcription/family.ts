/**
 * Transcription (`POST /v1/stt`): a multipart upload of one recording; History shows the upload
 * (the audio kept, playable offline) and the transcript. Code export: shared/codegen/voice-stt.ts.
 */
import { transcriptionContract } from './contract';
import type { SharedFamily } from '../types';
import { VOICE_CODE } from '../../codegen/voice';

export const transcriptionFamily = {
  id: 'transcription',
  contract: { key: 'transcription', ops: transcriptionContract },
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
      code: { kind: 'stt-rest', sdk: null, sdkMethod: 'stt', toolLoop: false, exporter: VOICE_CODE.stt },
    },
    // A live microphone (main/live/transcription.ts): a session with its tracks, marks and timeline.
    'transcription.live': {
      label: 'Transcription · live',
      entry: 'session',
      method: 'GET',
      transport: 'websocket',
      path: '/v1/stt',
      input: 'none',
      output: 'none',
      rerun: null,
      structured: null,
      eventTimeline: false,
      code: { kind: 'stt-stream', sdk: null, sdkMethod: 'stt', toolLoop: false, exporter: VOICE_CODE.sttSocket },
    },
  },
} as const satisfies SharedFamily;
