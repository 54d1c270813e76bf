/** Voices (`/v1/custom-voices`): creating, changing and deleting a custom voice are recorded runs. */
import { VOICES_EXPORTER } from './codegen';
import type { OwnEndpoint, SharedFamily } from '../types';

const base = { entry: 'text', input: 'none', output: 'none', rerun: null, structured: null, eventTimeline: false } as const;

function code(kind: string, sdkMethod: string): OwnEndpoint['code'] {
  return { kind, sdk: null, sdkMethod, toolLoop: false, exporter: VOICES_EXPORTER };
}

export const voicesFamily = {
  id: 'voices',
  nav: { route: '/voices', label: 'Voices', icon: 'voices', order: 130 },
  entry: 'text',
  endpoints: {
    'voices.create': { ...base, label: 'Voices · clone', method: 'POST', path: '/v1/custom-voices', code: code('voices-create', 'custom_voices.create') },
    'voices.update': { ...base, label: 'Voices · edit', method: 'PATCH', path: '/v1/custom-voices/{id}', code: code('voices-update', 'custom_voices.update') },
    'voices.delete': { ...base, label: 'Voices · delete', method: 'DELETE', path: '/v1/custom-voices/{id}', code: code('voices-delete', 'custom_voices.delete') },
  },
} as const satisfies SharedFamily;
