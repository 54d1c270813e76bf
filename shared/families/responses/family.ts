/** Responses (`/v1/responses`): chains, stored responses (retrieve, delete) and compaction. */
import { responsesContract } from './contract';
import type { OwnEndpoint, SharedFamily } from '../types';

const stored = { entry: 'text', rerun: null, structured: null, eventTimeline: false } as const satisfies Partial<OwnEndpoint>;

export const responsesFamily = {
  id: 'responses',
  contract: { key: 'responses', ops: responsesContract },
  nav: { route: '/responses', label: 'Responses', icon: 'responses', order: 20 },
  entry: 'text',
  endpoints: {
    responses: {
      label: 'Responses',
      entry: 'text',
      method: 'POST',
      path: '/v1/responses',
      input: 'responses',
      output: 'responses',
      rerun: 'responses',
      structured: 'responses',
      eventTimeline: false,
      code: { kind: 'responses', sdk: 'openai', sdkMethod: 'responses.create', toolLoop: true },
    },
    'responses.compact': {
      ...stored,
      label: 'Responses: compact',
      method: 'POST',
      path: '/v1/responses/compact',
      input: 'responses',
      output: 'none',
      code: { kind: 'responses-compact', sdk: 'openai', sdkMethod: 'responses.compact', toolLoop: false },
    },
    'responses.retrieve': {
      ...stored,
      label: 'Responses: retrieve',
      method: 'GET',
      path: '/v1/responses/{id}',
      input: 'none',
      output: 'responses',
      code: { kind: 'responses-get', sdk: 'openai', sdkMethod: 'responses.retrieve', toolLoop: false },
    },
    'responses.delete': {
      ...stored,
      label: 'Responses: delete',
      method: 'DELETE',
      path: '/v1/responses/{id}',
      input: 'none',
      output: 'none',
      code: { kind: 'responses-delete', sdk: 'openai', sdkMethod: 'responses.delete', toolLoop: false },
    },
  },
} as const satisfies SharedFamily;
