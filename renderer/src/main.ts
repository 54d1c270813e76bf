/**
 * Renderer entry. The bridge is imported first: it strips the `#token=...` fragment and connects
 * before the router reads the URL. Then the api is provided to the stores and the app mounts.
 */
import { bridgeStatus, workbench } from './bridge';
import { createApp } from 'vue';
import { createPinia } from 'pinia';
import PrimeVue from 'primevue/config';
import ToastService from 'primevue/toastservice';
import ConfirmationService from 'primevue/confirmationservice';
import Tooltip from 'primevue/tooltip';
import Aura from '@primeuix/themes/aura';
import { provideWorkbench } from './api';
import { createAppRouter } from './router';
import { preloadMarkdown } from './components/markdown/async-markdown';
import App from './App.vue';
import './styles/app.css';

provideWorkbench(workbench, bridgeStatus);

const app = createApp(App);
app.use(createPinia());
app.use(PrimeVue, { theme: { preset: Aura, options: { darkModeSelector: '.app-dark' } } });
app.use(ToastService);
app.use(ConfirmationService);
app.directive('tooltip', Tooltip);
app.use(createAppRouter());
app.mount('#app');
// What the first view deferred (the markdown renderer for answers) loads while the user reads it:
// a second after start, when the page is next idle, so it never competes with start-up itself.
const whenIdle = globalThis.requestIdleCallback ?? ((callback: () => void) => setTimeout(callback, 0));
setTimeout(() => whenIdle(() => void preloadMarkdown()), 1_000);
