/** SIP phone calls: phone numbers, the webhook receiver, ringing calls and call control. No recorded runs (a registration's answer holds the signing secret); calls reach History through the recording model. */
import { sipContract } from './contract';
import type { SharedFamily } from '../types';

export const sipFamily = {
  id: 'sip',
  contract: { key: 'sip', ops: sipContract },
  nav: { route: '/sip', label: 'Phone (SIP)', icon: 'sip', order: 140 },
  entry: 'session',
  endpoints: {},
} as const satisfies SharedFamily;
