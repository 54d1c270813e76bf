/** Chat (`/v1/chat/completions`): streamed, plain and deferred. */
import { chatContract } from './contract';
import type { SharedFamily } from '../types';

export const chatFamily = {
  id: 'chat',
  contract: { key: 'chat', ops: chatContract },
  nav: { route: '/chat', label: 'Chat', icon: 'chat', order: 10 },
  entry: 'text',
  endpoints: {
    'chat.completions': {
      label: 'Chat',
      entry: 'text',
      method: 'POST',
      path: '/v1/chat/completions',
      input: 'chat',
      output: 'chat',
      rerun: 'chat',
      structured: 'chat',
      eventTimeline: false,
      code: { kind: 'chat', sdk: 'openai', sdkMethod: 'chat.completions.create', toolLoop: true },
    },
  },
} as const satisfies SharedFamily;
