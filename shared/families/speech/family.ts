/**
 * Speech (text to speech): `POST /v1/tts` and the WebSocket `/v1/tts` (its upgrade is a GET).
 * History shows the audio a run kept (its media entry). Code export: shared/codegen/voice-tts*.ts.
 */
import { speechContract } from './contract';
import type { OwnEndpoint, SharedFamily } from '../types';
import { VOICE_CODE } from '../../codegen/voice';

const speech = { entry: 'media', input: 'none', output: 'none', rerun: null, structured: null, eventTimeline: false } as const satisfies Partial<OwnEndpoint>;

export const speechFamily = {
  id: 'speech',
  contract: { key: 'speech', ops: speechContract },
  nav: { route: '/speech', label: 'Speech', icon: 'speech', order: 115 },
  entry: 'media',
  endpoints: {
    'speech.synthesize': {
      ...speech,
      label: 'Speech · synthesize',
      method: 'POST',
      path: '/v1/tts',
      code: { kind: 'tts', sdk: null, sdkMethod: 'tts', toolLoop: false, exporter: VOICE_CODE.tts },
    },
    'speech.stream': {
      ...speech,
      label: 'Speech · stream (WebSocket)',
      method: 'GET',
      transport: 'websocket',
      path: '/v1/tts',
      code: { kind: 'tts-stream', sdk: null, sdkMethod: 'tts', toolLoop: false, exporter: VOICE_CODE.ttsSocket },
    },
  },
} as const satisfies SharedFamily;
