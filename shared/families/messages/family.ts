/** Messages (`/v1/messages`): system and content blocks, thinking, the stream's event timeline. */
import { messagesContract } from './contract';
import type { SharedFamily } from '../types';

export const messagesFamily = {
  id: 'messages',
  contract: { key: 'messages', ops: messagesContract },
  nav: { route: '/messages', label: 'Messages', icon: 'messages', order: 30 },
  entry: 'text',
  endpoints: {
    messages: {
      label: 'Messages',
      entry: 'text',
      method: 'POST',
      path: '/v1/messages',
      input: 'messages',
      output: 'messages',
      rerun: 'messages',
      structured: null,
      eventTimeline: true,
      code: { kind: 'messages', sdk: 'anthropic', sdkMethod: 'messages.create', toolLoop: true },
    },
  },
} as const satisfies SharedFamily;
