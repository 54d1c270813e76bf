/** Routes (hash history: the app is served from app:// and from a loopback server alike). */
import type { Component } from 'vue';
import { NAV_ENTRIES, type NavEntry, type NavRoute } from '@shared/families';
import { createRouter, createWebHashHistory, type RouteRecordRaw, type Router, type RouterHistory } from 'vue-router';

/** Each nav entry's view, loaded when first opened. */
const VIEWS: Record<NavRoute, () => Promise<Component>> = {
  '/chat': () => import('./views/ChatView.vue'),
  '/responses': () => import('./views/ResponsesView.vue'),
  '/messages': () => import('./views/MessagesView.vue'),
  '/legacy': () => import('./views/LegacyView.vue'),
  '/compare': () => import('./views/CompareView.vue'),
  '/images': () => import('./views/ImagesView.vue'),
  '/videos': () => import('./views/VideosView.vue'),
  '/gallery': () => import('./views/GalleryView.vue'),
  '/models': () => import('./views/ModelsView.vue'),
  '/files': () => import('./views/FilesView.vue'),
  '/history': () => import('./views/HistoryView.vue'),
};

export const routes: RouteRecordRaw[] = [
  { path: '/', redirect: '/chat' },
  ...NAV_ENTRIES.map((entry: NavEntry) => ({
    path: entry.route,
    name: entry.route.slice(1),
    component: VIEWS[entry.route as NavRoute],
    meta: { title: entry.title ?? entry.label },
  })),
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
