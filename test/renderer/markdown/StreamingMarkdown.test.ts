import { mount, type VueWrapper } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextTick } from 'vue';
import StreamingMarkdown from '../../../renderer/src/components/markdown/StreamingMarkdown.vue';
import { createMarkdown } from '../../../renderer/src/lib/markdown/create-markdown';
import { blockRendererKey, type RenderEnv } from '../../../renderer/src/lib/markdown/render-block';

// DOMPurify does not run on happy-dom, so the component gets the app's markdown-it unsanitised
// (the sanitised path is covered in a real browser by render-block.browser.test.ts).
const md = createMarkdown();

function setup(props: { text: string; streaming: boolean }) {
  const render = vi.fn((source: string, env: RenderEnv) => md.render(source, env));
  const wrapper = mount(StreamingMarkdown, { props, global: { provide: { [blockRendererKey as symbol]: render } } });
  return { wrapper, render };
}

const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())).then(() => nextTick());

let mounted: VueWrapper | undefined;
afterEach(() => mounted?.unmount());

describe('StreamingMarkdown', () => {
  it('renders a finished message in one go', () => {
    const { wrapper } = setup({ text: '# Title\n\nSome *text*.\n\n- a\n- b\n', streaming: false });
    mounted = wrapper;
    expect(wrapper.find('.md-root').element.innerHTML.replace(/<!--.*?-->/g, '')).toBe(
      '<div class="md-page"><div class="md-block"><h1>Title</h1>\n</div><div class="md-block"><p>Some <em>text</em>.</p>\n</div>' +
        '<div class="md-block"><ul>\n<li>a</li>\n<li>b</li>\n</ul>\n</div></div>',
    );
  });

  it('renders completed blocks once and keeps their DOM while the tail grows', async () => {
    const { wrapper } = setup({ text: 'First paragraph.\n\n', streaming: true });
    mounted = wrapper;
    const full = 'First paragraph.\n\nSecond **one**.\n\n```ts\nconst a = 1;\n\nlet b = a;\n```\n\nLast words';
    for (let i = 'First paragraph.\n\n'.length + 1; i <= full.length; i += 3) {
      await wrapper.setProps({ text: full.slice(0, i) });
      await frame();
    }
    await wrapper.setProps({ text: full });
    await frame();
    const firstBlock = wrapper.find('.md-block').element;
    expect(firstBlock.innerHTML).toBe('<p>First paragraph.</p>\n');
    expect(wrapper.find('.md-tail').html()).toContain('Last words');

    await wrapper.setProps({ text: `${full}.\n\nMore.` });
    await frame();
    await wrapper.setProps({ streaming: false });
    await nextTick();

    expect(wrapper.find('.md-block').element).toBe(firstBlock);
    expect(wrapper.find('.md-tail').exists()).toBe(false);
    const finalBlocks = wrapper.findAll('.md-block').map((b) => b.element.innerHTML);
    expect(finalBlocks.join('')).toBe(md.render(`${full}.\n\nMore.`));
  });

  it('renders each completed block exactly once after it completes', async () => {
    const { wrapper, render } = setup({ text: 'one\n\ntwo\n', streaming: true });
    mounted = wrapper;
    const before = render.mock.calls.filter(([s]) => s === 'one\n\n').length;
    for (const text of ['one\n\ntwo\n\nthree\n', 'one\n\ntwo\n\nthree\n\nfour\n', 'one\n\ntwo\n\nthree\n\nfour\n\nfive']) {
      await wrapper.setProps({ text });
      await frame();
    }
    await wrapper.setProps({ streaming: false });
    expect(render.mock.calls.filter(([s]) => s === 'one\n\n').length).toBe(before);
    expect(before).toBe(1);
    expect(render.mock.calls.filter(([s]) => s === 'two\n\n')).toHaveLength(1);
    expect(render.mock.calls.filter(([s]) => s === 'three\n\n')).toHaveLength(1);
  });

  it('updates the tail at most once per animation frame', async () => {
    const { wrapper, render } = setup({ text: 'a', streaming: true });
    mounted = wrapper;
    render.mockClear();
    for (const text of ['ab', 'abc', 'abcd', 'abcde']) await wrapper.setProps({ text });
    expect(render).not.toHaveBeenCalled();
    await frame();
    expect(render.mock.calls).toEqual([['abcde', {}]]);
    expect(wrapper.find('.md-tail').html()).toContain('abcde');
  });

  it('shows highlighted code with a keyboard-reachable Copy button that copies the code', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { wrapper } = setup({ text: '```ts\nconst x: number = 1;\n```\n', streaming: false });
    mounted = wrapper;
    expect(wrapper.find('code.language-ts .hljs-keyword').text()).toBe('const');
    const button = wrapper.find('button.md-copy');
    expect(button.attributes('type')).toBe('button');
    await button.trigger('click');
    await Promise.resolve();
    expect(writeText).toHaveBeenCalledWith('const x: number = 1;\n');
    expect(button.text()).toBe('Copied');
  });

  it('starts over when the text is replaced rather than extended', async () => {
    const { wrapper } = setup({ text: 'old one\n\nold two\n', streaming: true });
    mounted = wrapper;
    await wrapper.setProps({ text: 'new\n\nnewer\n' });
    await frame();
    expect(wrapper.text()).not.toContain('old');
    expect(wrapper.find('.md-block').html()).toContain('new');
  });
});
