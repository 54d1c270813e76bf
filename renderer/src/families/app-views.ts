/** The app's own views in the nav (not a family's): their icons and views, by route. */
import type { NavRoute } from '@shared/families';
import { drawing } from './icons';
import type { IconDrawing, LazyView } from './types';

export const APP_VIEWS: Record<'/compare' | '/gallery' | '/history', { icon: IconDrawing; view: LazyView }> = {
  '/compare': {
    icon: drawing(['rect', 3, 4, 7.5, 16, 1.5], ['rect', 13.5, 4, 7.5, 16, 1.5]),
    view: () => import('../views/CompareView.vue'),
  },
  '/gallery': {
    icon: drawing(['rect', 3, 3, 7.5, 7.5, 1.2], ['rect', 13.5, 3, 7.5, 7.5, 1.2], ['rect', 3, 13.5, 7.5, 7.5, 1.2], ['path', 'M13.5 14.5v5.5l4.5-2.75z']),
    view: () => import('../views/GalleryView.vue'),
  },
  '/history': {
    icon: drawing(['circle', 12, 12, 8.5], ['path', 'M12 7.5V12l3 2']),
    view: () => import('../views/HistoryView.vue'),
  },
} satisfies Partial<Record<NavRoute, unknown>>;
