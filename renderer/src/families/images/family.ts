/** Images: its nav icon, its view, and its History entry (History shows the images a run kept.) */
import MediaRunDetails from '../../components/history/MediaRunDetails.vue';
import { drawing } from '../icons';
import type { RendererFamily } from '../types';

export const imagesRenderer = {
  id: 'images',
  icon: drawing(['rect', 3, 4, 18, 16, 2], ['circle', 9, 9.5, 1.8], ['path', 'm3 17 5-5 4 4 3-3 6 6']),
  view: () => import('./views/ImagesView.vue'),
  historyEntry: MediaRunDetails,
} as const satisfies RendererFamily;
