/** Voices: its nav icon, its view, and its History entry (a clone's reference clip, the voice as answered). */
import VoiceRunDetails from './components/VoiceRunDetails.vue';
import { drawing } from '../icons';
import type { RendererFamily } from '../types';

export const voicesRenderer = {
  id: 'voices',
  // A head in profile with sound waves.
  icon: drawing(['path', 'M9 4a5 5 0 0 1 5 5v1l2 3h-2v3a2 2 0 0 1-2 2h-2v2'], ['path', 'M4 20v-4a5 5 0 0 1 0-8'], ['path', 'M18.5 8a5 5 0 0 1 0 8M21 5.5a9 9 0 0 1 0 13']),
  view: () => import('./views/VoicesView.vue'),
  historyEntry: VoiceRunDetails,
} as const satisfies RendererFamily;
