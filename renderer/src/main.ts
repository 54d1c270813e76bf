/**
 * Renderer entry. The bridge is imported first: it strips the `#token=...` fragment and connects
 * before the router reads the URL. Then the api is provided to the stores and the app mounts.
 */
import { bridgeStatus, keepRouteOnTokenLinks, workbench } from './bridge';
import { createApp } from 'vue';
import { createPinia } from 'pinia';
import PrimeVue from 'primevue/config';
import ToastService from 'primevue/toastservice';
import ConfirmationService from 'primevue/confirmationservice';
import Tooltip from 'primevue/tooltip';
import { provideWorkbench } from './api';
import { createAppRouter } from './router';
import { preloadDrafts } from './composables/draft-cache';
import { useLiveSessionsStore } from './stores/live-sessions';
import { preloadMarkdown } from './components/markdown/async-markdown';
import App from './App.vue';
// The icon font the components' `icon="pi pi-…"` props name; served from our own origin (CSP font-src 'self').
import 'primeicons/primeicons.css';
import './styles/app.css';
import { WorkbenchPreset } from './styles/workbench-preset';

provideWorkbench(workbench, bridgeStatus);
// The kept drafts are read at once; the first view waits for them (bounded), so its form is
// filled before it is painted and nothing typed can come before the restore.
const draftsLoaded = preloadDrafts(workbench);

const app = createApp(App);
const pinia = createPinia();
app.use(pinia);
// Live sessions this tab was attached to before a reload: attached again (each sends a fresh snapshot).
useLiveSessionsStore(pinia).restore();
app.use(PrimeVue, { theme: { preset: WorkbenchPreset, options: { darkModeSelector: '.app-dark' } } });
app.use(ToastService);
app.use(ConfirmationService);
app.directive('tooltip', Tooltip);
const router = createAppRouter();
router.beforeEach(() => draftsLoaded);
// The newly printed link pasted into this tab is only `#token=…`: the view shown stays.
keepRouteOnTokenLinks(() => `#${router.currentRoute.value.fullPath}`);
app.use(router);
app.mount('#app');
// What the first view deferred (the markdown renderer for answers) loads while the user reads it:
// a second after start, when the page is next idle, so it never competes with start-up itself.
const whenIdle = globalThis.requestIdleCallback ?? ((callback: () => void) => setTimeout(callback, 0));
setTimeout(() => whenIdle(() => void preloadMarkdown()), 1_000);
