/** Routes (hash history: the app is served from app:// and from a loopback server alike). */
import { createRouter, createWebHashHistory, type RouteRecordRaw, type Router, type RouterHistory } from 'vue-router';

export const routes: RouteRecordRaw[] = [
  { path: '/', redirect: '/chat' },
  { path: '/chat', name: 'chat', component: () => import('./views/ChatView.vue'), meta: { title: 'Chat' } },
  {
    path: '/responses',
    name: 'responses',
    component: () => import('./views/ResponsesView.vue'),
    meta: { title: 'Responses' },
  },
  { path: '/messages', name: 'messages', component: () => import('./views/MessagesView.vue'), meta: { title: 'Messages' } },
  { path: '/legacy', name: 'legacy', component: () => import('./views/LegacyView.vue'), meta: { title: 'Legacy completions' } },
  { path: '/compare', name: 'compare', component: () => import('./views/CompareView.vue'), meta: { title: 'Compare' } },
  { path: '/models', name: 'models', component: () => import('./views/ModelsView.vue'), meta: { title: 'Models' } },
  { path: '/files', name: 'files', component: () => import('./views/FilesView.vue'), meta: { title: 'Files' } },
  { path: '/history', name: 'history', component: () => import('./views/HistoryView.vue'), meta: { title: 'History' } },
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
