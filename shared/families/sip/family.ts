/**
 * SIP phone calls: phone numbers, the webhook receiver, ringing calls and call control. Each
 * incoming call is a recorded session (`sip.call`: the delivery, the actions, how it ended; its
 * recorded request is the call's hangup, which code export writes). Registrations are not runs:
 * their answer holds the signing secret.
 */
import { sipContract } from './contract';
import { VOICE_CODE } from '../../codegen/voice';
import type { SharedFamily } from '../types';

export const sipFamily = {
  id: 'sip',
  contract: { key: 'sip', ops: sipContract },
  nav: { route: '/sip', label: 'Phone (SIP)', icon: 'sip', order: 140 },
  entry: 'session',
  endpoints: {
    'sip.call': {
      label: 'Phone · incoming call',
      entry: 'session',
      method: 'POST',
      path: '/v1/realtime/calls/{id}/hangup',
      input: 'none',
      output: 'none',
      rerun: null,
      structured: null,
      eventTimeline: false,
      code: { kind: 'sip-call', sdk: null, sdkMethod: 'realtime.calls.hangup', toolLoop: false, exporter: VOICE_CODE.json },
    },
  },
} as const satisfies SharedFamily;
