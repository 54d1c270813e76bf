import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, h } from 'vue';
import ConfirmDialog from 'primevue/confirmdialog';
import { flushPromises } from '@vue/test-utils';
import FilterTextBox from '@/families/files/components/FilterTextBox.vue';
import FilterBuilder from '@/families/files/components/FilterBuilder.vue';
import UploadQueue from '@/families/files/components/UploadQueue.vue';
import FileTable from '@/families/files/components/FileTable.vue';
import UploadRunDetails from '@/families/files/components/UploadRunDetails.vue';
import { useFileUploadsStore } from '@/families/files/stores/file-uploads';
import { useConnectionsStore } from '@/stores/connections';
import { useFilesStore } from '@/families/files/stores/files';
import { button, mountWithApp, type Mounted } from '../../mount-app';
import { makeFileRecord } from '../../fake-workbench';
import { makeRecord } from '../../fake-data';
import { formatShortTime } from '@/lib/format';
import { WorkbenchFailure } from '@shared/contract/errors';

let m: Mounted;
afterEach(() => {
  m?.wrapper.unmount();
  vi.useRealTimers();
});

describe('FilterTextBox', () => {
  it('puts a caret under the column of the error and will not apply a filter that does not parse', async () => {
    m = await mountWithApp(FilterTextBox, { route: '/history', props: { modelValue: 'name:"x" AND AND' } });
    const caret = m.wrapper.find('pre.caret').element.textContent ?? '';
    const error = m.wrapper.find('[role="alert"]').text();
    const column = Number(/Column (\d+)/.exec(error)?.[1]);
    expect(column).toBe(14);
    expect(caret.indexOf('^')).toBe(column - 1);
    expect(button(m.wrapper, 'Apply').disabled).toBe(true);
    await m.wrapper.setProps({ modelValue: 'size_bytes > 10' });
    expect(m.wrapper.find('pre.caret').exists()).toBe(false);
    button(m.wrapper, 'Apply').click();
    expect(m.wrapper.emitted('apply')).toEqual([['size_bytes > 10']]);
  });
});

describe('FilterBuilder', () => {
  it('builds AIP-160 text from its rows and refuses a value that does not fit the field', async () => {
    m = await mountWithApp(FilterBuilder, { route: '/history' });
    await m.wrapper.find('input[aria-label="Value 1"]').setValue('report');
    button(m.wrapper, '+ Add condition').click();
    await flushPromises();
    await m.wrapper.find('input[aria-label="Value 2"]').setValue('1000');
    await m.wrapper.find('input[aria-label="Value 2"]').trigger('input');
    button(m.wrapper, 'Use filter').click();
    expect(m.wrapper.emitted('build')).toEqual([['name:report AND size_bytes > 1000']]);
    await m.wrapper.find('input[aria-label="Value 2"]').setValue('lots');
    expect(m.wrapper.text()).toMatch(/size_bytes/);
    expect(button(m.wrapper, 'Use filter').disabled).toBe(true);
  });
});

describe('UploadQueue', () => {
  it('shows progress, speed and time left, and Cancel stops the upload', async () => {
    m = await mountWithApp(UploadQueue, { route: '/history' });
    const uploads = useFileUploadsStore();
    void uploads.addRefs([{ ref: `ref_${'C'.repeat(20)}`, name: 'video.mp4', size: 1000, type: 'video/mp4' }]);
    await flushPromises();
    m.fake.controls.uploads[0]!.progress(250, 150);
    await flushPromises();
    expect(m.wrapper.find('.upload-detail').text()).toBe('250 bytes of 1000 bytes · 150 bytes/s · 5 s left');
    button(m.wrapper, 'Cancel').click();
    await flushPromises();
    expect(m.fake.controls.uploads[0]!.cancelled).toBe(true);
    expect(m.wrapper.text()).toContain('cancelled');
    expect(m.wrapper.text()).toContain('Retry');
  });
});

describe('UploadQueue while the page stages a file (browser mode)', () => {
  it('is one upload from the first byte: progress, speed, time left and a working Cancel, the percentage beside the bar', async () => {
    vi.useFakeTimers({ toFake: ['performance', 'Date'] });
    m = await mountWithApp(UploadQueue, { route: '/history' });
    const uploads = useFileUploadsStore();
    let report!: (loaded: number) => void;
    let aborted = false;
    const done = uploads.addFiles([new File([new Uint8Array(3000)], 'big.bin')], {
      twoLegs: true,
      stage: (_file, onProgress, signal) =>
        new Promise((_resolve, reject) => {
          report = onProgress;
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(new WorkbenchFailure({ code: 'cancelled', message: 'cancelled' }));
          });
        }),
    });
    await flushPromises();
    report(0);
    vi.advanceTimersByTime(1000);
    report(300);
    await flushPromises();
    const row = m.wrapper.find('[aria-label="Upload of big.bin"]');
    expect(row.text()).toContain('uploading');
    expect(row.text()).not.toContain('preparing');
    // 300 of 3000 bytes staged at 300 bytes/s: 2,700 to stage and 3,000 to send.
    expect(row.find('.upload-detail').text()).toBe('300 bytes of 2.9 KiB to the workbench (step 1 of 2) · 300 bytes/s · 19 s left');
    expect(row.find('.percent').text()).toBe('5%');
    expect(row.find('.p-progressbar-label').exists()).toBe(false);
    button(m.wrapper, 'Cancel the upload of big.bin').click();
    await done;
    await flushPromises();
    expect(aborted).toBe(true);
    expect(m.fake.controls.uploads).toHaveLength(0);
    expect(m.fake.controls.calls.filter((c) => c.method === 'files.uploadCancelled')).toHaveLength(1);
    expect(row.text()).toContain('cancelled');
    expect(row.text()).toContain('Retry');
  });
});

/** Opens a row's Share menu and picks how long the public URL lasts. */
function share(name: string, choice: string): Promise<void> {
  return pick(`Share ${name} as a public URL`, choice);
}

/** Opens the menu of the button named `menu` and picks `choice`. */
async function pick(menu: string, choice: string): Promise<void> {
  button(m.wrapper, menu).click();
  await flushPromises();
  const item = [...document.querySelectorAll<HTMLElement>('[role="menuitem"]')].find((el) => el.textContent?.trim() === choice);
  if (!item) throw new Error(`no menu item "${choice}"`);
  (item.querySelector('a, .p-menu-item-link, .p-menu-item-content') ?? item).dispatchEvent(new MouseEvent('click', { bubbles: true }));
  await flushPromises();
}

/** The table plus the app-level confirm dialog it asks through. */
const TableWithConfirm = defineComponent({ setup: () => () => [h(FileTable), h(ConfirmDialog)] });

describe('FileTable', () => {
  it('deletes a file after confirmation and keeps it listed as deleted', async () => {
    m = await mountWithApp(TableWithConfirm, { route: '/history', fake: { files: [makeFileRecord({ id: 'file_a', filename: 'a.txt', expiresAt: Date.now() + 90 * 60_000 })] } });
    await useFilesStore().refresh();
    await flushPromises();
    expect(m.wrapper.text()).toMatch(/expires in 1 h (29|30) min/);
    button(m.wrapper, 'Delete a.txt').click();
    await flushPromises();
    expect(m.fake.controls.calls.some((c) => c.method === 'files.remove')).toBe(false);
    const dialog = document.querySelector('[role="alertdialog"], [role="dialog"]')!;
    expect(dialog.textContent).toContain('Delete "a.txt" (file_a) from the service?');
    [...dialog.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Delete')!.click();
    await flushPromises();
    expect(m.fake.controls.calls.filter((c) => c.method === 'files.remove').map((c) => c.input)).toEqual([{ id: 'file_a', connectionId: 'sandbox' }]);
    // "On the service" lists what the service holds: the deleted file leaves it at once…
    expect(m.wrapper.text()).not.toContain('a.txt');
    // …and the local record keeps it, marked deleted, dated like every other date in the table.
    await useFilesStore().setSource('local');
    await flushPromises();
    const row = m.wrapper.findAll('tbody tr').find((r) => r.text().includes('a.txt'))!;
    expect(row.text()).toContain('deleted');
    expect(row.text()).toMatch(/Deleted from the service \d{1,2}:\d{2}\s?(AM|PM)?\./);
  });

  it('renames a file and moves its expiry through the edit dialog (PUT)', async () => {
    m = await mountWithApp(FileTable, { route: '/history', fake: { files: [makeFileRecord({ id: 'file_a', filename: 'a.txt' })] } });
    await useFilesStore().refresh();
    await flushPromises();
    button(m.wrapper, 'Edit a.txt').click();
    await flushPromises();
    const name = document.querySelector<HTMLInputElement>('#file-edit-name')!;
    name.value = 'b.txt';
    name.dispatchEvent(new Event('input'));
    await flushPromises();
    [...document.querySelectorAll('[role="dialog"] button')].find((b) => b.textContent?.trim() === 'Save')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    await flushPromises();
    expect(m.fake.controls.calls.filter((c) => c.method === 'files.update').map((c) => c.input)).toEqual([{ id: 'file_a', connectionId: 'sandbox', filename: 'b.txt' }]);
    expect(m.wrapper.text()).toContain('b.txt');
  });

  it('acts on a local-record row through the connection it was recorded under, not the active one', async () => {
    const files = [makeFileRecord({ id: 'file_a', filename: 'a.txt' }), makeFileRecord({ id: 'file_b', filename: 'b.txt', connectionId: 'conn-other' })];
    m = await mountWithApp(TableWithConfirm, { route: '/history', fake: { files } });
    await useConnectionsStore().load();
    await useFilesStore().setSource('local');
    await flushPromises();
    expect(m.wrapper.text()).toMatch(/last seen [^·]+ · Sandbox/);
    button(m.wrapper, 'Download b.txt').click();
    await share('b.txt', 'Until revoked');
    expect(m.wrapper.text()).toContain('a removed connection');
    const inputs = (method: string) => m.fake.controls.calls.filter((c) => c.method === method).map((c) => c.input);
    expect(inputs('files.download')).toEqual([{ id: 'file_b', connectionId: 'conn-other' }]);
    expect(inputs('files.createPublicUrl')).toEqual([{ id: 'file_b', connectionId: 'conn-other' }]);
  });

  it('creates, and revokes, a public URL', async () => {
    m = await mountWithApp(FileTable, { route: '/history', fake: { files: [makeFileRecord({ id: 'file_a', filename: 'a.txt' })] } });
    await useFilesStore().refresh();
    await flushPromises();
    await share('a.txt', 'Until revoked');
    expect(m.wrapper.text()).toContain('public');
    await pick('Shared public URL of a.txt', 'Revoke');
    expect(m.fake.controls.calls.map((c) => c.method)).toEqual(expect.arrayContaining(['files.createPublicUrl', 'files.revokePublicUrl']));
    expect(() => button(m.wrapper, 'Shared public URL of a.txt')).toThrow();
    expect(button(m.wrapper, 'Share a.txt as a public URL')).toBeTruthy();
  });

  it('offers the expiry the spec allows for a public URL: until revoked, or for a time', async () => {
    m = await mountWithApp(FileTable, { route: '/history', fake: { files: [makeFileRecord({ id: 'file_a', filename: 'a.txt' })] } });
    await useFilesStore().refresh();
    await flushPromises();
    await share('a.txt', 'For 1 day');
    expect(m.fake.controls.calls.filter((c) => c.method === 'files.createPublicUrl').map((c) => c.input)).toEqual([{ id: 'file_a', connectionId: 'sandbox', expiresAfter: 86_400 }]);
    const tag = m.wrapper.find('[title*="t0k3n"]');
    expect(tag.attributes('title')).toMatch(/stops working/);
  });

  it('shows the upload time in the short form that fits its column, the full time in its title', async () => {
    const createdAt = new Date(2026, 10, 27, 5, 2, 44).getTime();
    m = await mountWithApp(FileTable, { route: '/history', fake: { files: [makeFileRecord({ id: 'file_a', filename: 'a.txt', createdAt })] } });
    await useFilesStore().refresh();
    await flushPromises();
    const time = m.wrapper.find('td .nowrap');
    // The short form (day and time, no seconds) in the cell; the full one in its title.
    expect(time.text()).not.toMatch(/:44/);
    expect(time.attributes('title')).toMatch(/:44/);
  });

  it('downloads in browser mode through the one-time link, with progress meanwhile', async () => {
    m = await mountWithApp(FileTable, { route: '/history', fake: { files: [makeFileRecord({ id: 'file_a', filename: 'a.txt' })] } });
    await useFilesStore().refresh();
    await flushPromises();
    const clicked: string[] = [];
    const spy = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(`${this.getAttribute('href')} ${this.download}`);
    });
    button(m.wrapper, 'Download a.txt').click();
    await flushPromises();
    m.fake.controls.downloads[0]!.progress(500, 1000);
    await flushPromises();
    expect(m.wrapper.find('[aria-label="Downloading a.txt"]').exists()).toBe(true);
    m.fake.controls.downloads[0]!.finish({ filename: 'a.txt', bytes: 1000, url: '/downloads/tok' });
    await flushPromises();
    expect(clicked).toEqual(['/downloads/tok a.txt']);
    spy.mockRestore();
  });
});

describe('UploadRunDetails', () => {
  it('shows the parts sent and the file as known now', async () => {
    const record = makeRecord({
      id: 'run-up',
      endpoint: 'files.upload',
      model: '',
      promptPreview: 'a.txt',
      request: { method: 'POST', url: 'http://127.0.0.1:4010/v1/files', headers: {}, body: { multipart: [{ name: 'expires_after', value: '3600' }, { name: 'file', filename: 'a.txt', contentType: 'text/plain', bytes: 2048 }] } },
    });
    const deletedAt = new Date(2026, 10, 24, 5, 0).getTime();
    m = await mountWithApp(UploadRunDetails, { route: '/history/run-up', props: { record }, fake: { files: [makeFileRecord({ id: 'file_a', runId: 'run-up', status: 'deleted', statusMessage: 'Deleted from the service.', lastSeenAt: deletedAt })] } });
    await flushPromises();
    const text = m.wrapper.text();
    expect(text).toContain('a.txt · 2 KiB · text/plain');
    expect(text).toContain('3600');
    expect(text).toContain('file_a');
    // The date in the lists' own format, not the UTC stamp main once wrote into the message.
    expect(text).toContain(`Deleted from the service ${formatShortTime(deletedAt)}.`);
    expect(text).not.toContain('UTC');
  });
});
