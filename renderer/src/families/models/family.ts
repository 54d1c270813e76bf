/** Models: its nav icon, its view, and its History entry (History shows a run as sent turns and output.) */
import { drawing } from '../icons';
import type { RendererFamily } from '../types';

export const modelsRenderer = {
  id: 'models',
  icon: drawing(['rect', 3, 4, 18, 16, 2], ['path', 'M3 10h18M9 10v10']),
  view: () => import('./views/ModelsView.vue'),
  historyEntry: null,
} as const satisfies RendererFamily;
