import { describe, expect, it } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import { nextTick, type Component } from 'vue';
import StreamingMarkdown from '@/components/markdown/StreamingMarkdown.vue';
import { lazyMarkdown } from '@/components/markdown/async-markdown';
import { createMarkdown } from '@/lib/markdown/create-markdown';
import { blockRendererKey, type RenderEnv } from '@/lib/markdown/render-block';

// DOMPurify does not run on happy-dom (see StreamingMarkdown.test.ts): render unsanitised here.
const md = createMarkdown();
const global = { provide: { [blockRendererKey as symbol]: (source: string, env: RenderEnv) => md.render(source, env) } };
const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())).then(() => nextTick());

describe('lazyMarkdown()', () => {
  it('shows the text as plain text until the renderer has loaded, then renders markdown, loading once', async () => {
    let release!: (component: Component) => void;
    let loads = 0;
    const lazy = lazyMarkdown(() => {
      loads++;
      return new Promise<Component>((resolve) => (release = resolve));
    });
    const wrapper = mount(lazy.component, { props: { text: 'Some **bold** words', streaming: false }, global });
    const second = mount(lazy.component, { props: { text: 'More', streaming: true }, global });
    expect(wrapper.find('.markdown-loading').text()).toBe('Some **bold** words');
    expect(wrapper.find('strong').exists()).toBe(false);
    release(StreamingMarkdown);
    await lazy.preload();
    await flushPromises();
    await frame();
    expect(wrapper.find('strong').text()).toBe('bold');
    expect(wrapper.find('.markdown-loading').exists()).toBe(false);
    expect(second.find('.markdown-loading').exists()).toBe(false);
    expect(loads).toBe(1);
    wrapper.unmount();
    second.unmount();
  });
});
