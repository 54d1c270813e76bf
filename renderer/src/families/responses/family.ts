/** Responses: its nav icon, its view, and its History entry (History shows a run as sent turns and output.) */
import { drawing } from '../icons';
import type { RendererFamily } from '../types';

export const responsesRenderer = {
  id: 'responses',
  icon: drawing(['circle', 6, 6, 2.2], ['circle', 6, 18, 2.2], ['circle', 18, 12, 2.2], ['path', 'M6 8.2v7.6M8 7l8 4M8 17l8-4']),
  view: () => import('./views/ResponsesView.vue'),
  historyEntry: null,
} as const satisfies RendererFamily;
