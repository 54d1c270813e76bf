// The Files filter says which filter the list shows: the applied one with its grouping as parsed,
// the raw box's text when it differs (or does not parse), and the builder showing the same filter
// as the box after a raw edit and across a switch to the local record.
import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import FilesView from '@/families/files/views/FilesView.vue';
import { makeFileRecord } from '../fake-workbench';
import { button, mountWithApp, type Mounted } from '../mount-app';

let m: Mounted;
afterEach(() => m?.wrapper.unmount());

const files = [makeFileRecord({ id: 'file_a', filename: 'a.txt' })];
const applied = () => m.wrapper.find('[aria-label="Applied filter"]').text();
const lists = () => m.fake.controls.calls.filter((c) => c.method === 'files.list').map((c) => (c.input as { filter?: string }).filter);
const value = (label: string) => (m.wrapper.find(`input[aria-label="${label}"]`).element as HTMLInputElement).value;

async function typeRaw(text: string, apply = true): Promise<void> {
  const box = m.wrapper.find('#files-filter-text');
  await box.setValue(text);
  if (apply) await box.trigger('keydown', { key: 'Enter' });
  await flushPromises();
}

describe('FilesView filter', () => {
  it('names the applied filter with its grouping as parsed, and shows a raw edit in the builder too', async () => {
    m = await mountWithApp(FilesView, { route: '/files', fake: { files } });
    await flushPromises();
    expect(applied()).toContain('no filter');
    await typeRaw('name:report AND size_bytes > 10 OR size_bytes < 5');
    expect(lists().at(-1)).toBe('name:report AND size_bytes > 10 OR size_bytes < 5');
    // AIP-160 binds OR tighter than AND: the list says so instead of leaving people to guess.
    expect(applied()).toContain('Filtered by name:report AND (size_bytes > 10 OR size_bytes < 5)');
    expect(m.wrapper.text()).toContain('Read as name:report AND (size_bytes > 10 OR size_bytes < 5)');
    // The builder holds the same filter, as two groups joined by AND.
    expect(value('Value 1.1')).toBe('report');
    expect(value('Value 2.1')).toBe('10');
    expect(value('Value 2.2')).toBe('5');
    expect(m.wrapper.find('[aria-label="Group 2"]').text()).toContain('OR');
    button(m.wrapper, 'Use filter').click();
    await flushPromises();
    expect(lists().at(-1)).toBe('name:report AND (size_bytes > 10 OR size_bytes < 5)');
  });

  it('says when the box holds a filter that is not applied, or does not parse, and the list keeps its filter', async () => {
    m = await mountWithApp(FilesView, { route: '/files', fake: { files } });
    await flushPromises();
    await typeRaw('size_bytes > 10');
    const sent = lists().length;
    await typeRaw('size_bytes > ');
    expect(lists()).toHaveLength(sent);
    expect(applied()).toContain('Filtered by size_bytes > 10');
    expect(m.wrapper.text()).toContain('Not applied (it does not parse): the list below keeps its filter.');
    await typeRaw('size_bytes > 99', false);
    expect(m.wrapper.text()).toContain('Not applied yet (press Apply or Enter)');
    button(m.wrapper, 'Clear filter').click();
    await flushPromises();
    expect(lists().at(-1)).toBeUndefined();
    expect(applied()).toContain('no filter');
    expect(value('Value 1')).toBe('');
  });

  it('keeps the builder rows across a switch to "Recorded here" and back', async () => {
    m = await mountWithApp(FilesView, { route: '/files', fake: { files } });
    await flushPromises();
    await m.wrapper.find('input[aria-label="Value 1"]').setValue('draft');
    const options = () => [...document.querySelectorAll<HTMLElement>('[aria-label="Which files"] button, [aria-label="Which files"] [role="radio"]')];
    const source = (label: string) => options().find((b) => b.textContent?.includes(label))!;
    source('Recorded here').click();
    await flushPromises();
    expect(m.wrapper.find('input[aria-label="Value 1"]').exists()).toBe(false);
    source('On the service').click();
    await flushPromises();
    expect(value('Value 1')).toBe('draft');
  });

  it('says when an applied filter nests beyond the builder, instead of showing other rows', async () => {
    m = await mountWithApp(FilesView, { route: '/files', fake: { files } });
    await flushPromises();
    await typeRaw('NOT (name:a AND (size_bytes > 1 OR size_bytes < 0))');
    expect(m.wrapper.text()).toContain('only the box beside can edit it');
    expect(m.wrapper.find('input[aria-label="Value 1"]').exists()).toBe(false);
    button(m.wrapper, 'Start new conditions').click();
    await flushPromises();
    expect(value('Value 1')).toBe('');
    expect(applied()).toContain('Filtered by NOT (name:a AND (size_bytes > 1 OR size_bytes < 0))');
  });
});
