import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import ModelsView from '@/families/models/views/ModelsView.vue';
import { useMessagesFormStore } from '@/families/messages/stores/messages-form';
import { button, mountWithApp, type Mounted } from '../mount-app';

let m: Mounted;
afterEach(() => m?.wrapper.unmount());

describe('ModelsView', () => {
  it('lists the catalogue with USD prices per 1M tokens, the long-context tier and the sandbox label', async () => {
    m = await mountWithApp(ModelsView, { route: '/models' });
    const rows = m.wrapper.findAll('tbody tr').map((r) => r.text());
    expect(rows).toHaveLength(4);
    const svc4 = rows.find((r) => r.startsWith('svc-4'))!;
    expect(svc4).toContain('$3.00');
    expect(svc4).toContain('$15.00');
    expect(svc4).toContain('≥ 128,000 tokens');
    expect(svc4).toContain('out $30.00');
    expect(rows.find((r) => r.startsWith('svc-image-1'))).toContain('$0.07');
    expect(m.wrapper.text()).toContain('Sandbox — synthetic outputs');
  });

  it('shows what to do when the catalogue cannot be loaded, and recovers on Refresh', async () => {
    m = await mountWithApp(ModelsView, { route: '/models', fake: { catalogueError: { code: 'network', message: 'connection refused' } } });
    expect(m.wrapper.find('[role="alert"]').text()).toContain('connection refused');
    expect(m.wrapper.text()).toContain('press Refresh');
    m.fake.controls.catalogueError = undefined;
    button(m.wrapper, 'Refresh').click();
    await flushPromises();
    expect(m.wrapper.find('[role="alert"]').exists()).toBe(false);
    expect(m.wrapper.findAll('tbody tr')).toHaveLength(4);
  });

  it('names a listing that could not be read, and why, above the models that could', async () => {
    const message = '/v1/language-models answered with {object, data} where {models} was expected; none of its models are shown.';
    m = await mountWithApp(ModelsView, { route: '/models', fake: { catalogueNotes: [{ listing: '/v1/language-models', message }] } });
    const note = m.wrapper.find('[aria-label="Listings not read"]');
    expect(note.text()).toContain('Some model listings could not be read; the table shows the others.');
    expect(note.text()).toContain(message);
    expect(m.wrapper.findAll('tbody tr')).toHaveLength(4);
  });

  it('shows no note when every listing was read', async () => {
    m = await mountWithApp(ModelsView, { route: '/models' });
    expect(m.wrapper.find('[aria-label="Listings not read"]').exists()).toBe(false);
  });
});

describe('ModelsView "Use in…"', () => {
  it('opens the chosen playground with the row\'s model selected', async () => {
    m = await mountWithApp(ModelsView, { route: '/models' });
    const row = m.wrapper.findAll('tbody tr').find((r) => r.text().startsWith('svc-4'))!;
    await row.find('button[aria-label="Use in… a playground: svc-4"]').trigger('click');
    await flushPromises();
    const items = [...document.body.querySelectorAll('.p-menu-item')];
    expect(items.map((i) => i.textContent?.trim())).toEqual(['Chat', 'Responses', 'Messages', 'Completions']);
    (items[2]!.querySelector('.p-menu-item-content') as HTMLElement).click();
    // The playground's view is loaded on first navigation (a dynamic import).
    await vi.waitFor(() => expect(m.router.currentRoute.value.path).toBe('/messages'), { timeout: 5000 });
    expect(useMessagesFormStore().model).toBe('svc-4');
  });

  it('disables the action for a model no text playground can use', async () => {
    m = await mountWithApp(ModelsView, { route: '/models' });
    const button = m.wrapper.find('button[aria-label="Use in… a playground: svc-video-1"]');
    expect(button.attributes('disabled')).toBeDefined();
    expect(button.attributes('title')).toMatch(/not a language model/);
  });
});
