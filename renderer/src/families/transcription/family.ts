/** Transcription: its nav icon (a microphone), its view, and its History entry (the audio sent and the transcript). */
import TranscriptionRunDetails from './components/TranscriptionRunDetails.vue';
import { drawing } from '../icons';
import type { RendererFamily } from '../types';

export const transcriptionRenderer = {
  id: 'transcription',
  icon: drawing(['rect', 9, 2, 6, 11, 3], ['path', 'M5 10a7 7 0 0 0 14 0M12 17v4M8 21h8']),
  view: () => import('./views/TranscriptionView.vue'),
  historyEntry: TranscriptionRunDetails,
} as const satisfies RendererFamily;
