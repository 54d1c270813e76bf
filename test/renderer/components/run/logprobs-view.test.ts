import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import LogprobsView from '@/components/run/LogprobsView.vue';
import type { LogprobEntry } from '@shared/wire/chat';

let wrapper: VueWrapper | undefined;
afterEach(() => {
  wrapper?.unmount();
  document.body.innerHTML = '';
});

const entry = (token: string, p: number, alts: Array<[string, number]> = []): LogprobEntry => ({
  token,
  logprob: Math.log(p),
  bytes: null,
  top_logprobs: alts.map(([t, q]) => ({ token: t, logprob: Math.log(q), bytes: null })),
});
const entries = [entry('The', 0.95, [['The', 0.95], ['A', 0.04]]), entry(' cat', 0.3, [[' dog', 0.5], [' cat', 0.3]]), entry(' sat', 0.6), entry('\n', 0.1)];

function show(list = entries): VueWrapper {
  wrapper = mount(LogprobsView, { props: { entries: list }, attachTo: document.body });
  return wrapper;
}

describe('LogprobsView', () => {
  it('shades each token by its probability band and labels it', () => {
    const w = show();
    const tokens = w.findAll('.token');
    expect(tokens.map((t) => t.classes().find((c) => c.startsWith('band-')))).toEqual(['band-0', 'band-2', 'band-1', 'band-3']);
    expect(tokens.map((t) => t.attributes('aria-label'))).toEqual(['"The": 95.0%', '" cat": 30.0%', '" sat": 60.0%', '"\\n": 10.0%']);
    expect(w.find('[aria-label="Legend"]').text()).toContain('≥ 90%');
  });

  it('shows the probability and top alternatives, most likely first, for a focused token', async () => {
    const w = show();
    await w.findAll('.token')[1]!.trigger('focus');
    const detail = w.find('.detail');
    expect(detail.text()).toContain('" cat" 30.0%');
    expect(w.findAll('.alternatives li').map((li) => li.text())).toEqual(['" dog" 50.0%', '" cat" 30.0% (chosen)']);
  });

  it('moves between tokens with the arrow keys, Home and End, keeping one tab stop', async () => {
    const w = show();
    const tokens = w.findAll('.token');
    expect(tokens.map((t) => t.attributes('tabindex'))).toEqual(['0', '-1', '-1', '-1']);
    (tokens[0]!.element as HTMLElement).focus();
    await tokens[0]!.trigger('keydown', { key: 'ArrowRight' });
    expect(document.activeElement).toBe(tokens[1]!.element);
    await tokens[1]!.trigger('keydown', { key: 'End' });
    expect(document.activeElement).toBe(tokens[3]!.element);
    await tokens[3]!.trigger('keydown', { key: 'Home' });
    expect(document.activeElement).toBe(tokens[0]!.element);
  });

  it('says so when no log probabilities came back', () => {
    expect(show([]).text()).toContain('No log probabilities came back');
  });
});
