import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import type { FileRef } from '@shared/contract/user-files';
import { useImagesFormStore } from '@/families/images/stores/images-form';
import { button, mountWithApp, type Mounted } from '../mount-app';
import { makeGalleryItem } from '../fake-workbench';

// The page's staging (XHR to main in browser mode) is tested on its own; here it hands back references.
const staged: string[] = [];
vi.mock('@/bridge/user-files', () => ({
  fileRefsFrom: async (files: File[]) =>
    files.map((f, index): FileRef => {
      staged.push(f.name);
      return { ref: `ref_${'I'.repeat(19)}${index}`, name: f.name, size: f.size, type: f.type };
    }),
  openFileInput: async () => picked,
}));
/** What the browser's file chooser gives (browser mode: the fake's userFiles.pick answers unsupported). */
let picked: File[] = [];

const { default: ImagesView } = await import('@/families/images/views/ImagesView.vue');

let m: Mounted;
afterEach(() => {
  m?.wrapper.unmount();
  staged.length = 0;
  picked = [];
});

function drop(files: File[]): void {
  const event = new Event('drop', { bubbles: true, cancelable: true }) as Event & { dataTransfer: unknown };
  event.dataTransfer = { files, types: ['Files'] };
  window.dispatchEvent(event);
}

const text = (): string => document.body.textContent ?? '';

describe('ImagesView', () => {
  it('generates: progress from sending to downloading k of n, then the grid with revised prompts, sizes and the cost', async () => {
    m = await mountWithApp(ImagesView, { route: '/images', fake: { imagesMode: 'manual' } });
    expect(text()).toContain('No images yet');
    await m.wrapper.find('#images-prompt').setValue('a fox in the snow');
    useImagesFormStore().n = 2;
    await flushPromises();
    expect(m.wrapper.find('[data-testid="cost-estimate"]').text()).toBe('Estimated cost: $0.14 (2 × $0.07 per image)');
    button(m.wrapper, 'Generate').click();
    await flushPromises();
    const stream = m.fake.controls.imageStreams[0]!;
    expect(stream.method).toBe('images.generate');
    expect(stream.input).toEqual({ model: 'svc-image-1', prompt: 'a fox in the snow', n: 2, resolution: '1k', responseFormat: 'url', aspectRatio: 'auto' });
    expect(text()).toContain('Sending the request…');
    stream.emit({ type: 'started', runId: stream.runId });
    stream.emit({ type: 'sent' });
    stream.emit({ type: 'downloading', done: 1, total: 2 });
    await flushPromises();
    expect(text()).toContain('Downloading images: 1 of 2');
    stream.finish();
    await flushPromises();
    const cards = m.wrapper.findAll('.image-result');
    expect(cards).toHaveLength(2);
    expect(cards[0]!.text()).toContain('Revised prompt: a fox in the snow (revised 1)');
    expect(cards[0]!.text()).toContain('1024×1024');
    expect(cards[0]!.find('img').attributes('src')).toMatch(/^\/media\//);
    expect(m.wrapper.find('[data-testid="actual-cost"]').text()).toBe('$0.14');
    // The run is kept in the draft, for a reload.
    expect(useImagesFormStore().lastRunId).toBe(stream.runId);
  });

  it('Stop cancels the stream and says nothing was added', async () => {
    m = await mountWithApp(ImagesView, { route: '/images', fake: { imagesMode: 'manual' } });
    await m.wrapper.find('#images-prompt').setValue('x');
    button(m.wrapper, 'Generate').click();
    await flushPromises();
    button(m.wrapper, 'Stop').click();
    await flushPromises();
    expect(m.fake.controls.imageStreams[0]!.cancelled).toBe(true);
    expect(text()).toContain('Stopped: nothing was added to the gallery.');
  });

  it('shows a failed request with the error block', async () => {
    m = await mountWithApp(ImagesView, { route: '/images', fake: { imagesMode: 'manual' } });
    await m.wrapper.find('#images-prompt').setValue('x');
    button(m.wrapper, 'Generate').click();
    await flushPromises();
    m.fake.controls.imageStreams[0]!.fail({ code: 'api_error', status: 400, message: 'prompt is too long' });
    await flushPromises();
    expect(document.querySelector('.error-block')?.textContent).toContain('prompt is too long');
  });

  it('turns a dropped image into an edit input, refuses a wrong type without sending it, and sends an edit', async () => {
    m = await mountWithApp(ImagesView, { route: '/images', fake: { imagesMode: 'manual' } });
    URL.createObjectURL = vi.fn(() => 'blob:fake');
    drop([new File(['png'], 'cat.png', { type: 'image/png' }), new File(['gif'], 'anim.gif', { type: 'image/gif' })]);
    await flushPromises();
    expect(staged).toEqual(['cat.png']);
    expect(text()).toContain('"anim.gif" is not a JPEG, PNG or WebP image');
    expect(m.wrapper.find('.input-label').text()).toBe('cat.png');
    // One input: aspect ratio does not apply, and the view says why.
    expect(text()).toContain('aspect ratio applies to generations and multi-image edits only');
    await m.wrapper.find('#images-prompt').setValue('add a hat');
    button(m.wrapper, 'Edit').click();
    await flushPromises();
    const stream = m.fake.controls.imageStreams[0]!;
    expect(stream.method).toBe('images.edit');
    // The staged file was kept in the gallery at once and the edit names that item (a draft can send it after a restart).
    expect(m.fake.controls.calls.filter((c) => c.method === 'gallery.keepInput').map((c) => c.input)).toEqual([{ ref: `ref_${'I'.repeat(19)}0` }]);
    expect(stream.input).toMatchObject({ prompt: 'add a hat', images: [{ kind: 'gallery', id: `gal_kept${'I'.repeat(7)}0` }] });
    expect(stream.input).not.toHaveProperty('aspectRatio');
  });

  it('checks chosen files before staging them: one over 20 MiB is refused, nothing of it sent', async () => {
    m = await mountWithApp(ImagesView, { route: '/images' });
    URL.createObjectURL = vi.fn(() => 'blob:fake');
    const huge = new File(['x'], 'huge.png', { type: 'image/png' });
    Object.defineProperty(huge, 'size', { value: 21 * 1024 * 1024 });
    picked = [huge, new File(['ok'], 'ok.webp', { type: 'image/webp' })];
    button(m.wrapper, 'Choose file…').click();
    await flushPromises();
    expect(staged).toEqual(['ok.webp']);
    expect(text()).toContain('"huge.png" is 21 MiB: over the 20 MiB an edit takes; nothing was sent.');
    expect(useImagesFormStore().inputs.map((i) => i.label)).toEqual(['ok.webp']);
  });

  it('labels several inputs <IMAGE_0>, <IMAGE_1> and inserts a reference into the prompt on click', async () => {
    m = await mountWithApp(ImagesView, { route: '/images' });
    const form = useImagesFormStore();
    form.editItem(makeGalleryItem({ id: 'gal_first001' }));
    form.addInput({ source: { kind: 'file', fileId: 'file_abc' }, label: 'file_abc', previewUrl: null });
    form.prompt = 'blend';
    await flushPromises();
    button(m.wrapper, 'Insert <IMAGE_1> into the prompt').click();
    await flushPromises();
    expect(form.prompt).toBe('blend <IMAGE_1>');
  });

  it('opens with ?edit=<gallery id> as the input', async () => {
    const item = makeGalleryItem({ id: 'gal_toedit01', name: 'fox.png' });
    m = await mountWithApp(ImagesView, { route: '/images?edit=gal_toedit01', fake: { gallery: [item] } });
    await flushPromises();
    expect(useImagesFormStore().inputs.map((i) => i.source)).toEqual([{ kind: 'gallery', id: 'gal_toedit01' }]);
    expect(m.router.currentRoute.value.fullPath).toBe('/images');
  });

  it('takes ?ref=<staged file> from the drop router as an input', async () => {
    const ref = `ref_${'R'.repeat(20)}`;
    m = await mountWithApp(ImagesView, { route: `/images?ref=${ref}&name=cat.png` });
    await flushPromises();
    expect(useImagesFormStore().inputs).toEqual([{ source: { kind: 'gallery', id: `gal_kept${'R'.repeat(8)}` }, label: 'cat.png', previewUrl: expect.stringMatching(/^\/media\//) }]);
    expect(m.router.currentRoute.value.fullPath).toBe('/images');
  });

  it('shows the last result again after a reload (images.ofRun with the kept run id)', async () => {
    const images = [makeGalleryItem({ id: 'gal_kept0001', revisedPrompt: 'kept revised', runId: 'run-img7' })];
    m = await mountWithApp(ImagesView, {
      route: '/images',
      fake: { drafts: { images: { prompt: 'p', lastRunId: 'run-img7' } }, gallery: images, imageResults: [{ runId: 'run-img7', images, costTicks: 700_000_000, inputs: [], durationMs: 900 }] },
    });
    await vi.waitFor(() => expect(m.wrapper.findAll('.image-result')).toHaveLength(1));
    expect(m.wrapper.text()).toContain('kept revised');
  });

  it('New empties the form and the shown result, keeping the model; Undo brings both back', async () => {
    m = await mountWithApp(ImagesView, { route: '/images' });
    await m.wrapper.find('#images-prompt').setValue('a kite');
    button(m.wrapper, 'Generate').click();
    await vi.waitFor(() => expect(m.wrapper.findAll('.image-result')).toHaveLength(1));
    button(m.wrapper, 'New').click();
    await flushPromises();
    const form = useImagesFormStore();
    expect(form.prompt).toBe('');
    expect(form.model).toBe('svc-image-1');
    expect(m.wrapper.findAll('.image-result')).toHaveLength(0);
    expect(text()).toContain('No images yet');
    button(m.wrapper, 'Undo').click();
    await vi.waitFor(() => expect(m.wrapper.findAll('.image-result')).toHaveLength(1));
    expect(form.prompt).toBe('a kite');
  });

  it('Edit this says the image is the input and the empty state asks for an edit; New takes the notice away', async () => {
    m = await mountWithApp(ImagesView, { route: '/images' });
    await m.wrapper.find('#images-prompt').setValue('a kite');
    button(m.wrapper, 'Generate').click();
    await vi.waitFor(() => expect(m.wrapper.findAll('.image-result')).toHaveLength(1));
    button(m.wrapper, 'Edit this').click();
    await flushPromises();
    expect(m.wrapper.find('.input-note').text()).toMatch(/is now the input/);
    button(m.wrapper, 'New').click();
    await flushPromises();
    expect(m.wrapper.find('.input-note').exists()).toBe(false);
    expect(text()).not.toContain('is now the input');
    // An edit form with nothing run yet asks for the edit, not for Generate.
    useImagesFormStore().addInput({ source: { kind: 'gallery', id: 'gal_toedit01' }, label: 'fox.png', previewUrl: null });
    await flushPromises();
    expect(m.wrapper.find('.empty-state').text()).toContain('press Edit');
    expect(m.wrapper.find('.empty-state').text()).not.toContain('Generate');
  });

  it('restores a draft’s inputs with their pictures: a kept data: preview, and a fresh URL asked of the gallery', async () => {
    const item = makeGalleryItem({ id: 'gal_kept0002', name: 'fox.png' });
    const data = 'data:image/jpeg;base64,/9j/AAAA';
    m = await mountWithApp(ImagesView, {
      route: '/images',
      fake: {
        gallery: [item],
        drafts: {
          images: {
            prompt: 'p',
            inputs: [
              { source: { kind: 'ref', ref: `ref_${'K'.repeat(20)}` }, label: 'cat.png', previewUrl: data },
              { source: { kind: 'gallery', id: 'gal_kept0002' }, label: 'fox.png', previewUrl: '/media/old?t=dead' },
              { source: { kind: 'ref', ref: `ref_${'L'.repeat(20)}` }, label: 'dog.png', previewUrl: 'blob:http://x/dead' },
            ],
          },
        },
      },
    });
    await flushPromises();
    const srcs = m.wrapper.findAll('img.input-thumb').map((img) => img.attributes('src'));
    expect(srcs).toEqual([data, (item.thumbUrl ?? item.url).url]);
    // The blob: URL died with its page: a generic icon, and the input is still sent.
    expect(m.wrapper.findAll('.input-thumb-none')).toHaveLength(1);
    expect((useImagesFormStore().request as { images?: unknown[] }).images).toHaveLength(3);
  });

  it('"Use as video input" goes to /videos?image=<id>', async () => {
    m = await mountWithApp(ImagesView, { route: '/images' });
    const push = vi.spyOn(m.router, 'push');
    await m.wrapper.find('#images-prompt').setValue('x');
    button(m.wrapper, 'Generate').click();
    await vi.waitFor(() => expect(m.wrapper.findAll('.image-result')).toHaveLength(1));
    button(m.wrapper, 'Use as video input').click();
    expect(push).toHaveBeenCalledWith({ path: '/videos', query: { image: 'gal_run1img0' } });
  });
});
