/** Videos: its nav icon, its view, and its History entry (History shows the video a job made.) */
import MediaRunDetails from '../../components/history/MediaRunDetails.vue';
import { drawing } from '../icons';
import type { RendererFamily } from '../types';

export const videosRenderer = {
  id: 'videos',
  icon: drawing(['rect', 3, 6, 13, 12, 2], ['path', 'm16 10.5 5-3v9l-5-3z']),
  view: () => import('./views/VideosView.vue'),
  historyEntry: MediaRunDetails,
} as const satisfies RendererFamily;
