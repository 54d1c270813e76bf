/**
 * Realtime voice (`/v1/realtime`, a WebSocket): the call console. A call is a live session owned
 * by main (the `realtime` kind, shared/realtime-call); it is recorded as a `realtime.call` run,
 * which History shows as a session (tracks, marks, timeline) with its transcript.
 */
import { REALTIME_EXPORTER } from './codegen';
import { realtimeContract } from './contract';
import type { SharedFamily } from '../types';

export const realtimeFamily = {
  id: 'realtime',
  contract: { key: 'realtime', ops: realtimeContract },
  nav: { route: '/realtime', label: 'Realtime', title: 'Realtime call console', icon: 'realtime', order: 125 },
  entry: 'session',
  endpoints: {
    'realtime.call': {
      label: 'Realtime · call',
      entry: 'session',
      method: 'GET',
      transport: 'websocket',
      path: '/v1/realtime',
      input: 'none',
      output: 'none',
      rerun: null,
      structured: null,
      eventTimeline: false,
      code: { kind: 'realtime', sdk: null, sdkMethod: 'realtime', toolLoop: false, exporter: REALTIME_EXPORTER },
    },
  },
} as const satisfies SharedFamily;
