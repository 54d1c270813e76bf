/**
 * Mounting helper for component tests: a real Pinia, PrimeVue (unstyled-enough for happy-dom),
 * toasts, confirmations and a memory-history router, with the fake workbench provided.
 */
import { mount, flushPromises, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import PrimeVue from 'primevue/config';
import ToastService from 'primevue/toastservice';
import ConfirmationService from 'primevue/confirmationservice';
import { createMemoryHistory, type Router } from 'vue-router';
import { defineComponent, h, type Component } from 'vue';
import { provideWorkbench } from '@/api';
import { createAppRouter } from '@/router';
import { resetPersistedToolsForTests } from '@/composables/use-persisted-tools';
import { preloadDrafts, resetDraftCacheForTests } from '@/composables/draft-cache';
import { createFakeWorkbench, type FakeWorkbench, type FakeWorkbenchOptions } from './fake-workbench';

/**
 * Stand-in for the markdown engineer's component (tested on its own): renders the text plainly
 * and shows whether it is still streaming, so these tests see exactly what was passed to it.
 */
export const StreamingMarkdownStub = defineComponent({
  name: 'StreamingMarkdown',
  props: { text: { type: String, required: true }, streaming: { type: Boolean, required: true } },
  setup: (props) => () => h('div', { class: 'markdown-stub', 'data-streaming': String(props.streaming) }, props.text),
});

export interface Mounted {
  wrapper: VueWrapper;
  fake: FakeWorkbench;
  router: Router;
  pinia: Pinia;
}

export async function mountWithApp(component: Component, opts: { fake?: FakeWorkbenchOptions; route?: string; props?: Record<string, unknown> } = {}): Promise<Mounted> {
  const fake = createFakeWorkbench(opts.fake);
  provideWorkbench(fake);
  // Each mount is a fresh session: saved tool sets are offered to the forms again.
  resetPersistedToolsForTests();
  // As main.ts does: the kept drafts are read before the first view is set up.
  resetDraftCacheForTests();
  await preloadDrafts(fake);
  const pinia = createPinia();
  setActivePinia(pinia);
  const router = createAppRouter(createMemoryHistory());
  await router.push(opts.route ?? '/chat');
  await router.isReady();
  const wrapper = mount(component, {
    props: opts.props,
    attachTo: document.body,
    global: {
      plugins: [pinia, [PrimeVue, { theme: 'none' }], ToastService, ConfirmationService, router],
      stubs: { StreamingMarkdown: StreamingMarkdownStub },
    },
  });
  await flushPromises();
  return { wrapper, fake, router, pinia };
}

/** The button whose visible label or aria-label is exactly `name`. */
export function button(wrapper: VueWrapper, name: string): HTMLButtonElement {
  const found = [...wrapper.element.ownerDocument.querySelectorAll('button')].find(
    (b) => b.getAttribute('aria-label') === name || b.textContent?.trim() === name,
  );
  if (!found) throw new Error(`no button named ${name}`);
  return found;
}
