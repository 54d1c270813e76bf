/** useRunGallery: a run's gallery items read when the run changes and followed through gallery.changed. */
import { afterEach, describe, expect, it } from 'vitest';
import { effectScope, nextTick, ref } from 'vue';
import { provideWorkbench } from '@/api';
import { useRunGallery } from '@/composables/use-run-gallery';
import { createFakeWorkbench, makeGalleryItem } from '../fake-workbench';

const flush = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
  await nextTick();
};

describe('useRunGallery', () => {
  const scope = effectScope();
  afterEach(() => scope.stop());

  it('reads the run’s items (kept by the filter), follows adds, updates and removals, and switches runs', async () => {
    const mix = makeGalleryItem({ id: 'g_mix', kind: 'audio', runId: 'run-a', name: 'mix.wav' });
    const still = makeGalleryItem({ id: 'g_img', kind: 'image', runId: 'run-a' });
    const other = makeGalleryItem({ id: 'g_b', kind: 'audio', runId: 'run-b' });
    const fake = createFakeWorkbench({ gallery: [mix, still, other] });
    provideWorkbench(fake);
    const runId = ref('run-a');
    const { items, loaded } = scope.run(() => useRunGallery(() => runId.value, (i) => i.kind === 'audio'))!;
    expect(loaded.value).toBe(false);
    await flush();
    expect([loaded.value, items.value.map((i) => i.id)]).toEqual([true, ['g_mix']]);

    const late = makeGalleryItem({ id: 'g_late', kind: 'audio', runId: 'run-a' });
    fake.controls.emitGalleryChanged({ item: late, id: late.id, removed: false });
    fake.controls.emitGalleryChanged({ item: makeGalleryItem({ id: 'g_img2', kind: 'image', runId: 'run-a' }), id: 'g_img2', removed: false });
    fake.controls.emitGalleryChanged({ item: { ...mix, name: 'renamed.wav' }, id: mix.id, removed: false });
    expect(items.value.map((i) => [i.id, i.name])).toEqual([
      ['g_mix', 'renamed.wav'],
      ['g_late', late.name],
    ]);
    fake.controls.emitGalleryChanged({ item: null, id: 'g_mix', removed: true });
    expect(items.value.map((i) => i.id)).toEqual(['g_late']);

    runId.value = 'run-b';
    await flush();
    expect([loaded.value, items.value.map((i) => i.id)]).toEqual([true, ['g_b']]);
  });
});
