/** Speech: its nav icon (a speaker with waves), the Speech playground, and its History entry (the audio with its characters lit). */
import { drawing } from '../icons';
import type { RendererFamily } from '../types';
import SpeechRunDetails from './components/SpeechRunDetails.vue';

export const speechRenderer = {
  id: 'speech',
  icon: drawing(['path', 'M4 9h4l5-4v14l-5-4H4z'], ['path', 'M16 9a4 4 0 0 1 0 6'], ['path', 'M18.5 6.5a7.5 7.5 0 0 1 0 11']),
  view: () => import('./views/SpeechView.vue'),
  historyEntry: SpeechRunDetails,
} as const satisfies RendererFamily;
