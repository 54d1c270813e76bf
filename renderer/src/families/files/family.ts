/** Files: its nav icon, its view, and its History entry (History shows an upload with its file record.) */
import UploadRunDetails from './components/UploadRunDetails.vue';
import { drawing } from '../icons';
import type { RendererFamily } from '../types';

export const filesRenderer = {
  id: 'files',
  icon: drawing(['path', 'M4 7a2 2 0 0 1 2-2h4l2 2h6a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2z'], ['path', 'M12 10v6M9.5 12.5 12 10l2.5 2.5']),
  view: () => import('./views/FilesView.vue'),
  historyEntry: UploadRunDetails,
} as const satisfies RendererFamily;
