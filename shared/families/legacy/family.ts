/** Legacy completions (`/v1/completions` and `/v1/complete`); main's contract family is `completions`. */
import { completionsContract } from './contract';
import type { OwnEndpoint, SharedFamily } from '../types';

const legacy = { entry: 'text', method: 'POST', input: 'prompt', rerun: 'legacy', structured: null, eventTimeline: false } as const satisfies Partial<OwnEndpoint>;

export const legacyFamily = {
  id: 'legacy',
  contract: { key: 'completions', ops: completionsContract },
  nav: { route: '/legacy', label: 'Legacy', title: 'Legacy completions', icon: 'legacy', order: 40 },
  entry: 'text',
  endpoints: {
    completions: {
      ...legacy,
      label: 'Completions (legacy)',
      path: '/v1/completions',
      output: 'completions',
      code: { kind: 'completions', sdk: 'openai', sdkMethod: 'completions.create', toolLoop: false },
    },
    complete: {
      ...legacy,
      label: 'Complete (legacy)',
      path: '/v1/complete',
      output: 'complete',
      // The Anthropic SDK no longer has a method for the legacy endpoint: its generic post() does.
      code: { kind: 'complete', sdk: 'anthropic', sdkMethod: 'post', toolLoop: false },
    },
  },
} as const satisfies SharedFamily;
