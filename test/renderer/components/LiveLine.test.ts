/**
 * LiveLine: a line of text that changes every frame (the event log's count, a call's cost) in two
 * boxes: the outer one of the width asked (what a flex row lays out), with the attributes given; the
 * inner one holding the text (the relayout boundary; its containment is checked by the Chromium
 * bench's trace, test/bench/realtime-event-log-chromium.ts, which names the layout roots).
 */
import { describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import LiveLine from '@/components/LiveLine.vue';

describe('LiveLine', () => {
  it('shows its text inside a box of the width asked, with the attributes given on that box', async () => {
    const wrapper = mount(LiveLine, { props: { width: '9rem' }, attrs: { class: 'muted', 'data-test': 'count', title: 'why' }, slots: { default: '12 messages' } });
    const outer = wrapper.find('[data-test="count"]');
    expect(outer.classes()).toEqual(expect.arrayContaining(['live-line', 'muted']));
    expect(outer.attributes('title')).toBe('why');
    expect((outer.element as HTMLElement).style.width).toBe('9rem');
    const inner = outer.find('.live-line-text');
    expect(inner.text()).toBe('12 messages');
    expect(outer.element.children).toHaveLength(1);
    await wrapper.setProps({ width: '22rem' });
    expect((outer.element as HTMLElement).style.width).toBe('22rem');
  });
});
