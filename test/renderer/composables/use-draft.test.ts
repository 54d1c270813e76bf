import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import { effectScope, nextTick, ref, shallowRef, type EffectScope } from 'vue';
import { provideWorkbench, type LinkStatus } from '@/api';
import { ADOPTED_VISIBLE_MS, DRAFT_SAVE_DELAY_MS, UNDO_VISIBLE_MS, useDraft, type DraftState } from '@/composables/use-draft';
import { preloadDrafts, resetDraftCacheForTests } from '@/composables/draft-cache';
import ChatView from '@/families/chat/views/ChatView.vue';
import MessagesView from '@/families/messages/views/MessagesView.vue';
import { useChatFormStore } from '@/families/chat/stores/chat-form';
import { useMessagesFormStore } from '@/families/messages/stores/messages-form';
import { createFakeWorkbench, type FakeWorkbench, type FakeWorkbenchOptions } from '../fake-workbench';
import { mountWithApp, type Mounted } from '../mount-app';

/** A two-field form using a draft, as a store would. */
function makeForm(fake: FakeWorkbench, key = 'probe') {
  const title = ref('');
  const body = ref<{ text: string; tags: string[] }>({ text: '', tags: [] });
  const draft = useDraft(
    key,
    () => ({ title: title.value, body: body.value }),
    (saved: DraftState | null) => {
      title.value = typeof saved?.title === 'string' ? saved.title : '';
      body.value = { text: '', tags: [], ...(saved?.body as object | undefined) };
    },
  );
  const puts = () => fake.controls.calls.filter((c) => c.method === 'drafts.put').map((c) => (c.input as { state: unknown }).state);
  return { title, body, draft, puts };
}

describe('useDraft', () => {
  let fake: FakeWorkbench;
  let scope: EffectScope;

  /** A fresh page: the fake main, the start-up read of the drafts (unless `preload` is false). */
  async function newPage(options: FakeWorkbenchOptions = {}, preload = true): Promise<void> {
    fake = createFakeWorkbench(options);
    provideWorkbench(fake);
    resetDraftCacheForTests();
    if (preload) await preloadDrafts(fake);
  }

  /** The form, made synchronously (as a store is, during a view's setup). */
  function start() {
    scope = effectScope();
    return scope.run(() => makeForm(fake))!;
  }

  async function setUp(options: FakeWorkbenchOptions = {}) {
    await newPage(options);
    return start();
  }

  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    scope?.stop();
    vi.useRealTimers();
  });

  describe('restore', () => {
    it('fills the form from the draft read at start, synchronously, and does not write it back', async () => {
      const form = await setUp({ drafts: { probe: { title: 'Herons', body: { text: 'They wade', tags: ['birds'] } } } });
      expect(form.title.value).toBe('Herons');
      expect(form.body.value).toEqual({ text: 'They wade', tags: ['birds'] });
      expect(form.draft.revision.value).toBe(1);
      await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS * 5);
      expect(form.puts()).toEqual([]);
    });

    it('a page that started cut off from main (a refused token) takes the kept draft once the link is back', async () => {
      const link = shallowRef<LinkStatus>('unauthorized');
      fake = createFakeWorkbench({ drafts: { probe: { title: 'Kept before the restart' } } });
      provideWorkbench(fake, link);
      resetDraftCacheForTests();
      const get = fake.drafts.get;
      let refused = true;
      fake.drafts.get = (input) => (refused ? Promise.reject(new Error('refused')) : get(input));
      const form = start();
      await flushPromises();
      expect(form.title.value).toBe('');
      refused = false;
      link.value = 'connected';
      await flushPromises();
      expect(form.title.value).toBe('Kept before the restart');
      expect(form.draft.notice.value?.kind).toBe('adopted');
      await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS * 5);
      expect(form.puts()).toEqual([]);
      provideWorkbench(fake, shallowRef<LinkStatus>('connected'));
    });

    it('without the start-up read, asks main and fills a form nobody touched', async () => {
      await newPage({ drafts: { probe: { title: 'Owls' } } }, false);
      const form = start();
      expect(form.title.value).toBe('');
      await flushPromises();
      expect(form.title.value).toBe('Owls');
      await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS * 5);
      expect(form.puts()).toEqual([]);
    });

    it('never overwrites what was typed before main answered: the typing is kept, saved and said', async () => {
      await newPage({ drafts: { probe: { title: 'Owls' } } }, false);
      const form = start();
      form.title.value = 'Typed at once';
      await flushPromises();
      expect(form.title.value).toBe('Typed at once');
      expect(form.draft.notice.value?.kind).toBe('conflict');
      await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS);
      expect(form.puts()).toEqual([{ title: 'Typed at once', body: { text: '', tags: [] } }]);
      expect(fake.controls.drafts.get('probe')?.state).toEqual({ title: 'Typed at once', body: { text: '', tags: [] } });
    });
  });

  describe('save', () => {
    it('writes once after a pause in typing, the whole form, deep changes included', async () => {
      const form = await setUp();
      form.title.value = 'K';
      await nextTick();
      await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS / 2);
      form.title.value = 'Kingfishers';
      form.body.value.tags.push('river');
      await nextTick();
      await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS - 50);
      expect(form.puts()).toEqual([]);
      await vi.advanceTimersByTimeAsync(100);
      expect(form.puts()).toEqual([{ title: 'Kingfishers', body: { text: '', tags: ['river'] } }]);
      await flushPromises();
      expect(form.draft.revision.value).toBe(1);
    });

    it('writes at once when the page hides, and nothing when there is nothing new', async () => {
      const form = await setUp();
      form.title.value = 'Before reload';
      await nextTick();
      window.dispatchEvent(new Event('pagehide'));
      expect(form.puts()).toEqual([{ title: 'Before reload', body: { text: '', tags: [] } }]);
      window.dispatchEvent(new Event('pagehide'));
      await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS * 2);
      expect(form.puts()).toHaveLength(1);
    });

    it('says a form over the size bound is not kept, without sending it', async () => {
      const form = await setUp();
      form.body.value.text = 'x'.repeat(2 * 1024 * 1024 + 1);
      await nextTick();
      await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS);
      expect(form.puts()).toEqual([]);
      expect(form.draft.notice.value).toEqual({ kind: 'error', message: expect.stringMatching(/^This form \(2,097,1\d\d bytes\) is larger than the 2,097,152 bytes a draft can keep/) });
    });
  });

  describe('another window', () => {
    it('takes its newer draft into a form with nothing unsaved', async () => {
      const form = await setUp({ drafts: { probe: { title: 'Mine' } } });
      fake.controls.putDraftFromElsewhere('probe', { title: 'Theirs', body: { text: 'from the other window', tags: [] } });
      await flushPromises();
      expect(form.title.value).toBe('Theirs');
      expect(form.draft.revision.value).toBe(2);
      expect(form.draft.notice.value).toEqual({ kind: 'adopted', message: 'Updated from another window.' });
      await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS * 2);
      expect(form.puts()).toEqual([]);
      await vi.advanceTimersByTimeAsync(ADOPTED_VISIBLE_MS);
      expect(form.draft.notice.value).toBeNull();
    });

    it('keeps unsaved local typing, says so, and saves it over the other', async () => {
      const form = await setUp({ drafts: { probe: { title: 'Mine' } } });
      form.title.value = 'Mine, still typing';
      await nextTick();
      fake.controls.putDraftFromElsewhere('probe', { title: 'Theirs' });
      await flushPromises();
      expect(form.title.value).toBe('Mine, still typing');
      expect(form.draft.notice.value?.kind).toBe('conflict');
      await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS);
      expect(fake.controls.drafts.get('probe')).toMatchObject({ revision: 3, state: { title: 'Mine, still typing' } });
    });

    it('ignores its own writes and other keys', async () => {
      const form = await setUp();
      form.title.value = 'Own';
      await nextTick();
      await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS);
      await flushPromises();
      fake.controls.putDraftFromElsewhere('other-form', { title: 'Elsewhere' });
      await flushPromises();
      expect(form.title.value).toBe('Own');
      expect(form.draft.notice.value).toBeNull();
      expect(fake.controls.calls.filter((c) => c.method === 'drafts.get')).toEqual([]);
    });
  });

  describe('startNew() and undo()', () => {
    it('empties the form and the kept draft; Undo brings the form back and keeps it again', async () => {
      const form = await setUp({ drafts: { probe: { title: 'Keep me', body: { text: 'long work', tags: ['a'] } } } });
      form.draft.startNew();
      expect(form.title.value).toBe('');
      expect(form.body.value).toEqual({ text: '', tags: [] });
      expect(form.draft.canUndo.value).toBe(true);
      await flushPromises();
      expect(fake.controls.drafts.get('probe')).toMatchObject({ revision: 2, state: null });
      // Clearing is not an edit to save.
      await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS * 2);
      expect(form.puts()).toEqual([]);

      form.draft.undo();
      expect(form.title.value).toBe('Keep me');
      expect(form.body.value).toEqual({ text: 'long work', tags: ['a'] });
      expect(form.draft.canUndo.value).toBe(false);
      await flushPromises();
      expect(fake.controls.drafts.get('probe')).toMatchObject({ revision: 3, state: { title: 'Keep me', body: { text: 'long work', tags: ['a'] } } });
    });

    it('replaceWith() keeps the filled form and offers Undo back to what was being written', async () => {
      const form = await setUp({ drafts: { probe: { title: 'Unsent work', body: { text: 'half a prompt', tags: [] } } } });
      expect(form.draft.canUndo.value).toBe(false);
      form.draft.replaceWith(() => {
        form.title.value = 'From History';
        form.body.value = { text: 'the recorded prompt', tags: ['run'] };
      }, 'Form filled from the run in History.');
      expect(form.draft.canUndo.value).toBe(true);
      expect(form.draft.undoMessage.value).toBe('Form filled from the run in History.');
      await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS + 1);
      expect(form.puts().at(-1)).toEqual({ title: 'From History', body: { text: 'the recorded prompt', tags: ['run'] } });

      form.draft.undo();
      expect(form.title.value).toBe('Unsent work');
      expect(form.body.value).toEqual({ text: 'half a prompt', tags: [] });
      await flushPromises();
      expect(fake.controls.drafts.get('probe')?.state).toEqual({ title: 'Unsent work', body: { text: 'half a prompt', tags: [] } });
    });

    it('offers Undo for a while only', async () => {
      const form = await setUp({ drafts: { probe: { title: 'Old' } } });
      form.draft.startNew();
      await vi.advanceTimersByTimeAsync(UNDO_VISIBLE_MS + 1);
      expect(form.draft.canUndo.value).toBe(false);
      form.draft.undo();
      expect(form.title.value).toBe('');
    });
  });
});

describe('drafts in the playgrounds', () => {
  let m: Mounted;
  afterEach(() => {
    m?.wrapper.unmount();
    document.body.innerHTML = '';
  });

  it('Chat shows its kept conversation on its first render, with New and Undo in the header', async () => {
    const kept = { model: 'svc-4', systemPrompt: 'Answer as a lighthouse keeper', messages: [{ id: 7, role: 'user', content: 'Is the lamp lit?' }], params: { temperature: 0.3 } };
    m = await mountWithApp(ChatView, { fake: { drafts: { chat: kept } } });
    const form = useChatFormStore();
    expect(form.systemPrompt).toBe('Answer as a lighthouse keeper');
    expect(form.messages.map((x) => x.content)).toEqual(['Is the lamp lit?']);
    expect(form.params.temperature).toBe(0.3);
    expect((m.wrapper.find('textarea[aria-label="Message 1"]').element as HTMLTextAreaElement).value).toBe('Is the lamp lit?');

    await m.wrapper.findAll('button').find((b) => b.text() === 'New')!.trigger('click');
    expect((m.wrapper.find('textarea[aria-label="Message 1"]').element as HTMLTextAreaElement).value).toBe('');
    expect(form.model).toBe('svc-4');
    expect(m.wrapper.text()).toContain('New form started.');
    await m.wrapper.findAll('button').find((b) => b.text() === 'Undo')!.trigger('click');
    expect((m.wrapper.find('textarea[aria-label="Message 1"]').element as HTMLTextAreaElement).value).toBe('Is the lamp lit?');
  });

  it('Messages keeps what is typed right after a model is chosen (a restore never lands on it)', async () => {
    m = await mountWithApp(MessagesView, { route: '/messages', fake: { drafts: { messages: { model: 'svc-3', turns: [{ role: 'user', blocks: [{ kind: 'text', text: 'kept' }] }] } } } });
    const form = useMessagesFormStore();
    form.model = 'svc-3-mini';
    await m.wrapper.find('textarea[aria-label="Message 1"]').setValue('typed after the model');
    await flushPromises();
    await new Promise((resolve) => setTimeout(resolve, DRAFT_SAVE_DELAY_MS + 100));
    await flushPromises();
    expect(form.turns[0]!.blocks[0]).toMatchObject({ kind: 'text', text: 'typed after the model' });
    expect(m.fake.controls.drafts.get('messages')?.state).toMatchObject({ model: 'svc-3-mini', turns: [{ blocks: [{ text: 'typed after the model' }] }] });
  });
});
