/** Voices (`/v1/custom-voices`): creating, changing and deleting a custom voice are recorded runs, shown in History by the family's own entry (a clone plays its reference clip). */
import { voicesContract } from './contract';
import { VOICE_CODE } from '../../codegen/voice';
import type { CodeExporter, OwnEndpoint, SharedFamily } from '../types';

const base = { entry: 'upload', input: 'none', output: 'none', rerun: null, structured: null, eventTimeline: false } as const;

function code(kind: string, sdkMethod: string, exporter: CodeExporter): OwnEndpoint['code'] {
  return { kind, sdk: null, sdkMethod, toolLoop: false, exporter };
}

export const voicesFamily = {
  id: 'voices',
  contract: { key: 'voices', ops: voicesContract },
  nav: { route: '/voices', label: 'Voices', icon: 'voices', order: 130 },
  entry: 'upload',
  endpoints: {
    'voices.create': { ...base, label: 'Voices · clone', method: 'POST', path: '/v1/custom-voices', code: code('voices-create', 'custom_voices.create', VOICE_CODE.voiceCreate) },
    'voices.update': { ...base, label: 'Voices · edit', method: 'PATCH', path: '/v1/custom-voices/{id}', code: code('voices-update', 'custom_voices.update', VOICE_CODE.json) },
    'voices.delete': { ...base, label: 'Voices · delete', method: 'DELETE', path: '/v1/custom-voices/{id}', code: code('voices-delete', 'custom_voices.delete', VOICE_CODE.json) },
  },
} as const satisfies SharedFamily;
