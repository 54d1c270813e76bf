/** Routes (hash history: the app is served from app:// and from a loopback server alike). */
import { createRouter, createWebHashHistory, type RouteRecordRaw, type Router, type RouterHistory } from 'vue-router';
import { NAV_ROUTES } from './families';

export const routes: RouteRecordRaw[] = [
  { path: '/', redirect: '/chat' },
  // Each nav entry's view (a family's or the app's own), loaded when first opened.
  ...NAV_ROUTES,
  {
    path: '/history/:id',
    name: 'history-entry',
    component: () => import('./views/HistoryEntryView.vue'),
    props: true,
    meta: { title: 'History' },
  },
  { path: '/:rest(.*)*', redirect: '/chat' },
];

/** The app's router; tests pass a memory history. */
export function createAppRouter(history: RouterHistory = createWebHashHistory()): Router {
  const router = createRouter({ history, routes });
  router.afterEach((to) => {
    const title = typeof to.meta.title === 'string' ? to.meta.title : null;
    if (globalThis.document) document.title = title ? `${title} — Inference Workbench` : 'Inference Workbench';
  });
  return router;
}
