import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { provideWorkbench } from '@/api';
import { useModelsStore } from '@/stores/models';
import { createFakeWorkbench, type FakeWorkbench } from '../fake-workbench';

let fake: FakeWorkbench;

beforeEach(() => {
  setActivePinia(createPinia());
  fake = createFakeWorkbench();
  provideWorkbench(fake);
});

describe('models store', () => {
  describe('load()', () => {
    it('converts prices from cents per 100M tokens to USD per 1M, and cents per image to USD', async () => {
      const m = useModelsStore();
      await m.load();
      const svc4 = m.rows.find((r) => r.id === 'svc-4')!;
      expect({
        prompt: svc4.promptUsdPer1M,
        cached: svc4.cachedUsdPer1M,
        completion: svc4.completionUsdPer1M,
        threshold: svc4.longContextThreshold,
        longPrompt: svc4.longPromptUsdPer1M,
        longCached: svc4.longCachedUsdPer1M,
        longCompletion: svc4.longCompletionUsdPer1M,
      }).toEqual({ prompt: 3, cached: 0.75, completion: 15, threshold: 128_000, longPrompt: 6, longCached: null, longCompletion: 30 });
      expect(m.rows.find((r) => r.id === 'svc-image-1')!.imageUsd).toBe(0.07);
      expect(m.rows.find((r) => r.id === 'svc-3-mini')!.longContextThreshold).toBeNull();
      expect(m.isSandbox).toBe(true);
    });

    it('keeps the error for the view and clears it on a successful refresh', async () => {
      fake.controls.catalogueError = { code: 'network', message: 'connection refused' };
      const m = useModelsStore();
      await m.load();
      expect(m.error?.code).toBe('network');
      fake.controls.catalogueError = undefined;
      await m.load({ refresh: true });
      expect(m.error).toBeNull();
      expect(fake.controls.calls.at(-1)).toEqual({ method: 'models.catalogue', input: { refresh: true } });
    });

    it('shares one request between concurrent loads', async () => {
      const m = useModelsStore();
      await Promise.all([m.load(), m.load(), m.ensureLoaded()]);
      expect(fake.controls.calls.filter((c) => c.method === 'models.catalogue')).toHaveLength(1);
    });
  });

  describe('visible', () => {
    it('filters by text over ids and aliases, by kind and by modality', async () => {
      const m = useModelsStore();
      await m.load();
      m.text = 'MINI';
      expect(m.visible.map((r) => r.id)).toEqual(['svc-3-mini']);
      m.text = '';
      m.kind = 'video';
      expect(m.visible.map((r) => r.id)).toEqual(['svc-video-1']);
      m.kind = null;
      m.modality = 'image';
      expect(m.visible.map((r) => r.id).sort()).toEqual(['svc-4', 'svc-image-1', 'svc-video-1']);
    });

    it('sorts by a column, flips on a second click, and keeps rows without a value last', async () => {
      const m = useModelsStore();
      await m.load();
      m.sortBy('promptUsdPer1M');
      expect(m.visible.map((r) => r.id)).toEqual(['svc-image-1', 'svc-3-mini', 'svc-4', 'svc-video-1']);
      m.sortBy('promptUsdPer1M');
      expect(m.visible.map((r) => r.id)).toEqual(['svc-4', 'svc-3-mini', 'svc-image-1', 'svc-video-1']);
    });

    it('offers only language models to the chat model picker', async () => {
      const m = useModelsStore();
      await m.load();
      expect(m.languageModels.map((r) => r.id).sort()).toEqual(['svc-3-mini', 'svc-4']);
    });
  });
});
