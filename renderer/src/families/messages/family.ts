/** Messages: its nav icon, its view, and its History entry (History shows a run as sent turns and output.) */
import { drawing } from '../icons';
import type { RendererFamily } from '../types';

export const messagesRenderer = {
  id: 'messages',
  icon: drawing(['path', 'M3 6h12v8H7l-4 3z'], ['path', 'M17 9h4v9l-3-2.5h-6V14']),
  view: () => import('./views/MessagesView.vue'),
  historyEntry: null,
} as const satisfies RendererFamily;
