/**
 * What a person types in the Messages form in its first second is never taken away: the model
 * list and the kept draft can both arrive after the first keystroke (a cold start, a slow main),
 * and neither may empty or replace the message (issue 14, item 17: a fresh-clone run saw the
 * first message emptied right after the model list loaded).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import PrimeVue from 'primevue/config';
import ToastService from 'primevue/toastservice';
import ConfirmationService from 'primevue/confirmationservice';
import { createMemoryHistory } from 'vue-router';
import type { Catalogue } from '@shared/families/models/contract';
import type { Draft } from '@shared/contract/drafts';
import { provideWorkbench } from '@/api';
import { createAppRouter } from '@/router';
import { preloadDrafts, resetDraftCacheForTests } from '@/composables/draft-cache';
import { resetPersistedToolsForTests } from '@/composables/use-persisted-tools';
import { useMessagesFormStore } from '@/families/messages/stores/messages-form';
import MessagesView from '@/families/messages/views/MessagesView.vue';
import { createFakeWorkbench } from '../fake-workbench';
import { StreamingMarkdownStub } from '../mount-app';

/** A promise the test resolves when it wants the answer to arrive. */
function gate<T>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

let wrapper: VueWrapper | undefined;
afterEach(() => wrapper?.unmount());

/**
 * Mounts Messages with the catalogue and (when `preloadFails`) the draft held back until the test
 * opens their gates; `kept` is a Messages draft an earlier session left.
 */
async function mountSlow(options: { kept?: Record<string, unknown>; preloadFails: boolean }) {
  const fake = createFakeWorkbench(options.kept ? { drafts: { messages: options.kept } } : {});
  const catalogue = gate<void>();
  const draft = gate<void>();
  const realCatalogue = fake.models.catalogue.bind(fake.models);
  fake.models.catalogue = async (input) => {
    await catalogue.promise;
    return realCatalogue(input) as Promise<Catalogue>;
  };
  const realGet = fake.drafts.get.bind(fake.drafts);
  fake.drafts.get = async (input) => {
    await draft.promise;
    return realGet(input) as Promise<Draft>;
  };
  // The drafts preload failed (main slow or busy at start): each store then asks main itself.
  if (options.preloadFails) fake.drafts.list = () => Promise.reject(new Error('not yet'));
  provideWorkbench(fake);
  resetPersistedToolsForTests();
  resetDraftCacheForTests();
  await preloadDrafts(fake);
  const pinia = createPinia();
  setActivePinia(pinia);
  const router = createAppRouter(createMemoryHistory());
  await router.push('/messages');
  await router.isReady();
  wrapper = mount(MessagesView, {
    attachTo: document.body,
    global: { plugins: [pinia, [PrimeVue, { theme: 'none' }], ToastService, ConfirmationService, router], stubs: { StreamingMarkdown: StreamingMarkdownStub } },
  });
  return { fake, openCatalogue: () => catalogue.open(), openDraft: () => draft.open() };
}

const message = (): HTMLTextAreaElement => wrapper!.find('textarea[aria-label="Message 1"]').element as HTMLTextAreaElement;

describe('Messages: typing before the models and the draft arrive', () => {
  it('keeps a message typed before the model list loads; the first model is then chosen and Send is ready', async () => {
    const slow = await mountSlow({ preloadFails: false });
    await wrapper!.find('textarea[aria-label="Message 1"]').setValue('Tell me about lighthouses in the fog');
    slow.openCatalogue();
    await flushPromises();
    expect(message().value).toBe('Tell me about lighthouses in the fog');
    expect(useMessagesFormStore().model).toBe('svc-4');
    expect(useMessagesFormStore().blockedReason).toBeNull();
  });

  it('keeps a message typed before a kept draft arrives from main, whichever arrives first', async () => {
    for (const order of ['draft first', 'models first'] as const) {
      wrapper?.unmount();
      const kept = { model: 'svc-3-mini', turns: [{ role: 'user', blocks: [{ kind: 'text', text: 'what I typed yesterday' }] }] };
      const slow = await mountSlow({ kept, preloadFails: true });
      await wrapper!.find('textarea[aria-label="Message 1"]').setValue('Tell me about lighthouses in the fog');
      if (order === 'draft first') slow.openDraft();
      await flushPromises();
      slow.openCatalogue();
      if (order === 'models first') {
        await flushPromises();
        slow.openDraft();
      }
      await flushPromises();
      expect(message().value, order).toBe('Tell me about lighthouses in the fog');
      expect(useMessagesFormStore().turns.map((t) => t.blocks.map((b) => (b.kind === 'text' ? b.text : b.kind))), order).toEqual([['Tell me about lighthouses in the fog']]);
    }
  });
});
