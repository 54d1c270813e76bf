// The families' derived lists agree with what the router offers: every nav entry opens a view of its
// own (the catch-all would send it to Chat), every page the router has is in the nav, each nav icon
// is drawn, and the playgrounds that History re-opens runs in and Models sends a model to are
// routes the router has, each the playground asked for.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { mount } from '@vue/test-utils';
import { createMemoryHistory, type Router } from 'vue-router';

import { ENDPOINT_DESCRIPTORS, ENDPOINTS, NAV_ENTRIES, type InputShape } from '@shared/families';
import { provideWorkbench } from '@/api';
import NavIcon from '@/components/NavIcon.vue';
import { chooseModelIn, playgroundsFor } from '@/composables/model-playgrounds';
import { canRerun, openInPlayground } from '@/composables/rerun';
import { createAppRouter, routes } from '@/router';
import { useImagesFormStore } from '@/families/images/stores/images-form';
import { makeRecord } from './fake-data';
import { createFakeWorkbench } from './fake-workbench';

const NAV_ROUTES: string[] = NAV_ENTRIES.map((e) => e.route);

/** A request body of each shape, as the playgrounds send them. */
const BODIES: Record<InputShape, unknown> = {
  chat: { model: 'svc-4', messages: [{ role: 'user', content: 'Explain tide pools' }], stream: true },
  responses: { model: 'svc-4', input: 'Explain tide pools', stream: true },
  messages: { model: 'svc-4', max_tokens: 256, messages: [{ role: 'user', content: 'Explain tide pools' }], stream: true },
  prompt: { model: 'svc-4', prompt: 'Explain tide pools', max_tokens: 64 },
  none: {},
};

/** The nav entry `target` lands on, or null when the router sends it elsewhere. */
async function landsOn(router: Router, target: Parameters<Router['push']>[0]): Promise<string | null> {
  await router.push(target);
  const path = router.currentRoute.value.path;
  return NAV_ROUTES.includes(path) ? path : null;
}

describe('router and the families', () => {
  let router: Router;
  beforeEach(async () => {
    setActivePinia(createPinia());
    // The form stores keep drafts through the api.
    provideWorkbench(createFakeWorkbench());
    router = createAppRouter(createMemoryHistory());
    await router.push('/history');
  });

  it('opens every nav entry on a view of its own, titled as the nav says', async () => {
    const views = new Set<unknown>();
    for (const entry of NAV_ENTRIES) {
      expect(await landsOn(router, entry.route), entry.route).toBe(entry.route);
      const matched = router.currentRoute.value.matched;
      expect(matched).toHaveLength(1);
      views.add(matched[0]!.components?.default);
      expect(document.title).toBe(`${'title' in entry ? entry.title : entry.label} — Inference Workbench`);
    }
    expect(views.size).toBe(NAV_ENTRIES.length);
    // Loading every view the first time is slow on a busy machine; nothing here waits on a clock.
  }, 120_000);

  it('has no page of its own that the nav leaves out', () => {
    const pages = routes.filter((r) => !r.redirect && !r.path.includes(':')).map((r) => r.path);
    expect(pages.sort()).toEqual([...NAV_ROUTES].sort());
  });

  it('draws a distinct icon for every nav entry', () => {
    const drawings = NAV_ENTRIES.map((entry) => mount(NavIcon, { props: { name: entry.icon } }).find('svg').element.innerHTML.replace(/<!--.*?-->/g, '').trim());
    for (const [i, drawing] of drawings.entries()) expect(drawing, NAV_ENTRIES[i]!.icon).toMatch(/<(path|rect|circle|polyline|line|polygon|ellipse)\b/);
    expect(new Set(drawings).size).toBe(NAV_ENTRIES.length);
    // Drawn by each family's module as a component inside the <svg>: still SVG elements, or nothing would show.
    for (const entry of NAV_ENTRIES) {
      const shapes = mount(NavIcon, { props: { name: entry.icon } }).find('svg').element.children;
      expect([...shapes].map((el) => el.namespaceURI), entry.icon).toEqual([...shapes].map(() => 'http://www.w3.org/2000/svg'));
    }
  });

  it.each([...ENDPOINTS])('History opens a %s run in the playground its descriptor names, or offers nothing', async (endpoint) => {
    const d = ENDPOINT_DESCRIPTORS[endpoint];
    const record = makeRecord({
      endpoint,
      output: null,
      request: { method: d.method, url: `http://127.0.0.1:4010${d.path.replace('{id}', 'resp_1')}`, headers: {}, body: BODIES[d.input] },
    });
    const target = openInPlayground(record);
    expect(canRerun(record)).toBe(target !== null);
    if (d.rerun === null) {
      expect(target).toBeNull();
      return;
    }
    expect(target).not.toBeNull();
    expect(await landsOn(router, target!)).toBe(`/${d.rerun}`);
  });

  it('opens an image edit in Images with its prompt, settings and inputs, showing that run', async () => {
    const body = {
      model: 'svc-image',
      prompt: 'Put <IMAGE_0> beside <IMAGE_1>',
      n: 3,
      resolution: '2k',
      aspect_ratio: '16:9',
      response_format: 'b64_json',
      images: [{ url: 'data:image/png;base64,iVBORw0KGgo=', type: 'image_url' }, { file_id: 'file_abc' }],
    };
    const record = makeRecord({ id: 'run_img_1', endpoint: 'images.edits', output: null, request: { method: 'POST', url: 'http://127.0.0.1:4010/v1/images/edits', headers: {}, body } });
    expect(await landsOn(router, openInPlayground(record)!)).toBe('/images');
    const form = useImagesFormStore();
    expect({ prompt: form.prompt, n: form.n, resolution: form.resolution, aspectRatio: form.aspectRatio, format: form.responseFormat, run: form.lastRunId }).toEqual({
      prompt: body.prompt, n: 3, resolution: '2k', aspectRatio: '16:9', format: 'b64_json', run: 'run_img_1',
    });
    expect(form.inputs.map((i) => i.source)).toEqual([{ kind: 'url', url: body.images[0]!.url }, { kind: 'file', fileId: 'file_abc' }]);
    expect(form.mode).toBe('edit');
  });

  it('sends a model from Models to each text playground it offers, on that playground', async () => {
    const choices = playgroundsFor({ id: 'svc-4', aliases: [], kind: 'language' });
    expect(choices.length).toBeGreaterThan(0);
    for (const { playground } of choices) expect(await landsOn(router, chooseModelIn(playground, 'svc-4'))).toBe(`/${playground}`);
  });
});
