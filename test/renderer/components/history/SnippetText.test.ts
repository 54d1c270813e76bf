import { describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import SnippetText from '@/components/history/SnippetText.vue';

describe('SnippetText', () => {
  it('highlights the matches and keeps markup in the text as text', () => {
    const wrapper = mount(SnippetText, {
      props: { parts: [{ text: '<img src=x onerror=alert(1)> ' }, { text: 'needle', match: true }, { text: ' in a <b>haystack</b>' }] },
    });
    expect(wrapper.findAll('mark').map((m) => m.text())).toEqual(['needle']);
    expect(wrapper.find('img').exists()).toBe(false);
    expect(wrapper.find('b').exists()).toBe(false);
    expect(wrapper.text()).toBe('<img src=x onerror=alert(1)> needle in a <b>haystack</b>');
  });
});
