/** Chat: its nav icon, its view, and its History entry (History shows a run as sent turns and output.) */
import { drawing } from '../icons';
import type { RendererFamily } from '../types';

export const chatRenderer = {
  id: 'chat',
  icon: drawing(['path', 'M4 5h16v11H9l-5 4z']),
  view: () => import('./views/ChatView.vue'),
  historyEntry: null,
} as const satisfies RendererFamily;
