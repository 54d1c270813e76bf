import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { provideWorkbench } from '@/api';
import { preloadDrafts, resetDraftCacheForTests } from '@/composables/draft-cache';
import { useImagesFormStore } from '@/families/images/stores/images-form';
import { useModelsStore } from '@/stores/models';
import { imageFileProblem, insertAt } from '@/lib/image-inputs';
import { IMAGE_LIMITS } from '@shared/wire/images';
import { makeEntry, sampleCatalogueEntries } from '../fake-data';
import { createFakeWorkbench, type FakeWorkbenchOptions } from '../fake-workbench';

async function setup(opts: FakeWorkbenchOptions = {}): Promise<ReturnType<typeof useImagesFormStore>> {
  const fake = createFakeWorkbench(opts);
  provideWorkbench(fake);
  resetDraftCacheForTests();
  await preloadDrafts(fake);
  setActivePinia(createPinia());
  await useModelsStore().load();
  const form = useImagesFormStore();
  if (!form.model) form.model = 'svc-image-1';
  return form;
}

const gal = (id: string) => ({ source: { kind: 'gallery' as const, id }, label: `${id}.png`, previewUrl: null });

describe('images-form store', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('offers the catalogue’s image models only', async () => {
    const form = await setup();
    expect(form.models.map((m) => m.id)).toEqual(['svc-image-1']);
  });

  it('blocks Send until there is a prompt, and sends a generation with every field', async () => {
    const form = await setup();
    expect(form.blockedReason).toBe('write a prompt');
    form.prompt = 'a lighthouse at dusk';
    form.n = 3;
    form.aspectRatio = '16:9';
    form.resolution = '2k';
    form.responseFormat = 'b64_json';
    form.user = 'u1';
    expect(form.blockedReason).toBeNull();
    expect(form.mode).toBe('generate');
    expect(form.request).toEqual({ model: 'svc-image-1', prompt: 'a lighthouse at dusk', n: 3, resolution: '2k', responseFormat: 'b64_json', user: 'u1', aspectRatio: '16:9' });
  });

  it('counts the prompt against the model’s max_prompt_length (the default when the listing has none) and blocks past it', async () => {
    const form = await setup();
    expect(form.promptLimit).toBe(IMAGE_LIMITS.maxPromptLengthDefault);
    form.prompt = 'x'.repeat(1025);
    expect(form.blockedReason).toBe('the prompt is 1,025 characters; svc-image-1 takes at most 1,024');
    const entries = [...sampleCatalogueEntries().filter((e) => e.kind !== 'image'), { ...makeEntry({ id: 'svc-image-1', kind: 'image', outputModalities: ['image'], prices: { image_price: 7 } }), maxPromptLength: 2000 }];
    const roomy = await setup({ entries });
    expect(roomy.promptLimit).toBe(2000);
  });

  it('refuses n outside 1–10 with the spec’s words', async () => {
    const form = await setup();
    form.prompt = 'p';
    form.n = 11;
    expect(form.violationsFor('n').map((v) => v.message)).toEqual(['at most 10']);
    form.n = 0;
    expect(form.blockedReason).toBe('at least 1');
  });

  it('estimates n × image_price before sending (7 cents an image)', async () => {
    const form = await setup();
    form.n = 4;
    expect(form.estimateTicks).toBe(4 * 7 * 100_000_000);
  });

  it('is an edit with inputs; aspect ratio is disabled (and not sent) for one input, and sent for several', async () => {
    const form = await setup();
    form.prompt = 'make it snow';
    form.aspectRatio = '4:3';
    form.addInput(gal('gal_aaaaaaaa'));
    expect(form.mode).toBe('edit');
    expect(form.aspectRatioEnabled).toBe(false);
    expect(form.aspectRatioNote).toMatch(/multi-image edits only/);
    expect(form.request).not.toHaveProperty('aspectRatio');
    expect(form.blockedReason).toBeNull();
    form.addInput(gal('gal_bbbbbbbb'));
    expect(form.aspectRatioEnabled).toBe(true);
    expect(form.request).toMatchObject({ aspectRatio: '4:3', images: [{ kind: 'gallery', id: 'gal_aaaaaaaa' }, { kind: 'gallery', id: 'gal_bbbbbbbb' }] });
  });

  it('takes at most ten inputs', async () => {
    const form = await setup();
    for (let i = 0; i < 10; i++) expect(form.addInput(gal(`gal_input00${i}`))).toBeNull();
    expect(form.addInput(gal('gal_input011'))).toMatch(/at most 10 images/);
    expect(form.inputs).toHaveLength(10);
  });

  it('inserts <IMAGE_n> at the caret, spaced from the words around it', async () => {
    const form = await setup();
    form.prompt = 'put the hat fromon the cat';
    const caret = form.insertRef(1, 'put the hat from'.length);
    expect(form.prompt).toBe('put the hat from <IMAGE_1> on the cat');
    expect(caret).toBe('put the hat from <IMAGE_1> '.length);
    form.insertRef(0, null);
    expect(form.prompt).toBe('put the hat from <IMAGE_1> on the cat <IMAGE_0>');
  });

  it('restores the kept draft, inputs and last run included, and drops values this build does not know', async () => {
    const form = await setup({
      drafts: {
        images: { model: 'svc-image-1', prompt: 'kept', n: 2, aspectRatio: '1:2', resolution: '8k', responseFormat: 'b64_json', user: '', inputs: [gal('gal_keptkept')], lastRunId: 'run-img9' },
      },
    });
    expect(form.prompt).toBe('kept');
    expect(form.n).toBe(2);
    expect(form.aspectRatio).toBe('1:2');
    expect(form.resolution).toBe('1k');
    expect(form.responseFormat).toBe('b64_json');
    expect(form.inputs.map((i) => i.label)).toEqual(['gal_keptkept.png']);
    expect(form.lastRunId).toBe('run-img9');
  });
});

describe('image-inputs', () => {
  it('accepts JPEG, PNG and WebP by type or (with no type) by extension, and says why it refuses the rest', () => {
    expect(imageFileProblem({ name: 'a.png', type: 'image/png', size: 10 })).toBeNull();
    expect(imageFileProblem({ name: 'a.WEBP', type: '', size: 10 })).toBeNull();
    expect(imageFileProblem({ name: 'a.gif', type: 'image/gif', size: 10 })).toBe('"a.gif" is not a JPEG, PNG or WebP image (it is image/gif); an edit takes only those.');
    expect(imageFileProblem({ name: 'notes.txt', type: '', size: 10 })).toMatch(/not a JPEG, PNG or WebP/);
    expect(imageFileProblem({ name: 'big.jpg', type: 'image/jpeg', size: IMAGE_LIMITS.maxInputImageBytes + 1 })).toBe('"big.jpg" is 20 MiB: over the 20 MiB an edit takes; nothing was sent.');
  });

  it('inserts at the end when the caret is unknown', () => {
    expect(insertAt('', '<IMAGE_0>', null)).toEqual({ text: '<IMAGE_0>', caret: 9 });
  });
});
