/** Realtime: its nav icon (a handset with sound), the call console, and its History entry (a recorded call). */
import RealtimeCallDetails from './components/RealtimeCallDetails.vue';
import { drawing } from '../icons';
import type { RendererFamily } from '../types';

export const realtimeRenderer = {
  id: 'realtime',
  // A phone handset with two sound arcs.
  icon: drawing(['path', 'M5 4h3l1.5 4-2 1.2a11 11 0 0 0 5.3 5.3l1.2-2 4 1.5v3a2 2 0 0 1-2 2A15 15 0 0 1 3 6a2 2 0 0 1 2-2z'], ['path', 'M15 3a6 6 0 0 1 6 6M15 6.5a2.5 2.5 0 0 1 2.5 2.5']),
  view: () => import('./views/RealtimeView.vue'),
  historyEntry: RealtimeCallDetails,
} as const satisfies RendererFamily;
