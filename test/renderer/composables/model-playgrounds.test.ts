import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { provideWorkbench } from '@/api';
import { createFakeWorkbench } from '../fake-workbench';
import { chooseModelIn, playgroundsFor } from '@/composables/model-playgrounds';
import { useChatFormStore } from '@/families/chat/stores/chat-form';
import { useLegacyFormStore } from '@/families/legacy/stores/legacy-form';
import { useMessagesFormStore } from '@/families/messages/stores/messages-form';
import { useResponsesFormStore } from '@/families/responses/stores/responses-form';

const catalogue = [
  { id: 'svc-4', aliases: ['svc-4-latest'] },
  { id: 'svc-3-mini', aliases: ['mini'] },
];

describe('model-playgrounds', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    // The form stores keep drafts through the api.
    provideWorkbench(createFakeWorkbench());
  });

  describe('playgroundsFor()', () => {
    it('offers every text playground for a language model', () => {
      expect(playgroundsFor({ id: 'svc-4', aliases: [], kind: 'language' }, catalogue)).toEqual([
        { playground: 'chat', label: 'Chat', disabledReason: null },
        { playground: 'responses', label: 'Responses', disabledReason: null },
        { playground: 'messages', label: 'Messages', disabledReason: null },
        { playground: 'legacy', label: 'Completions', disabledReason: null },
      ]);
    });

    it('says why Completions cannot use a reasoning model, by id or by alias', () => {
      for (const id of ['svc-3-mini', 'mini']) {
        const choices = playgroundsFor({ id, aliases: [], kind: 'language' }, catalogue);
        expect(choices.filter((c) => c.disabledReason !== null).map((c) => [c.playground, c.disabledReason])).toEqual([
          ['legacy', `${id} is a reasoning model: the legacy completions endpoints do not support it.`],
        ]);
      }
    });

    it('disables every text playground for an image or video model, with the reason', () => {
      const choices = playgroundsFor({ id: 'svc-image-1', aliases: [], kind: 'image' }, catalogue);
      expect(choices.map((c) => c.disabledReason)).toEqual(Array(4).fill('svc-image-1 is not a language model (kind: image): the text playgrounds cannot use it.'));
    });
  });

  describe('chooseModelIn()', () => {
    it('selects the model in the chosen playground and says where to go', () => {
      expect(chooseModelIn('chat', 'svc-4')).toBe('/chat');
      expect(chooseModelIn('responses', 'svc-4-latest')).toBe('/responses');
      expect(chooseModelIn('messages', 'mini')).toBe('/messages');
      useLegacyFormStore().tab = 'complete';
      expect(chooseModelIn('legacy', 'svc-4')).toBe('/legacy');
      expect([useChatFormStore().model, useResponsesFormStore().form.model, useMessagesFormStore().model]).toEqual(['svc-4', 'svc-4-latest', 'mini']);
      expect([useLegacyFormStore().model, useLegacyFormStore().tab]).toEqual(['svc-4', 'completions']);
    });
  });
});
