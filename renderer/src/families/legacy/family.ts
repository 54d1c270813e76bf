/** Legacy completions: its nav icon, its view, and its History entry (History shows a run as sent turns and output.) */
import { drawing } from '../icons';
import type { RendererFamily } from '../types';

export const legacyRenderer = {
  id: 'legacy',
  icon: drawing(['path', 'M5 4h11l3 3v13H5z'], ['path', 'M8 10h8M8 14h8M8 18h5']),
  view: () => import('./views/LegacyView.vue'),
  historyEntry: null,
} as const satisfies RendererFamily;
