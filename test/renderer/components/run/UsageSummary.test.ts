import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import UsageSummary from '@/components/run/UsageSummary.vue';
import { runMetrics } from '@shared/run-metrics';
import { makeUsage } from '../../fake-data';

let w: VueWrapper | undefined;
afterEach(() => w?.unmount());

/** Each figure as "label value", in order. */
function figures(wrapper: VueWrapper): string[] {
  return wrapper.findAll('dl > div').map((d) => `${d.find('dt').text()} ${d.find('dd').text()}`);
}

describe('UsageSummary', () => {
  it('shows first token, rate, total time, tokens in/out/reasoning and cost, in that order', () => {
    const usage = { ...makeUsage(), prompt_tokens: 12, completion_tokens: 90, completion_tokens_details: { ...makeUsage().completion_tokens_details, reasoning_tokens: 10 } };
    const metrics = runMetrics({ endpoint: 'chat.completions', timings: { ttfbMs: 100, firstTokenMs: 250, totalMs: 1_250 }, usage, costTicks: 7_920_000 });
    w = mount(UsageSummary, { props: { metrics } });
    expect(figures(w)).toEqual(['First token 250 ms', 'Tokens/s 100 tok/s', 'Total time 1.25 s', 'In 12', 'Out 90', 'Reasoning 10', 'Cost $0.000792']);
  });

  it('shows "—", not 0, for the reasoning Messages does not report, and says it is counted in Out', () => {
    const metrics = runMetrics({ endpoint: 'messages', timings: { ttfbMs: 80, firstTokenMs: 90, totalMs: 500 }, usage: makeUsage({ cost_in_usd_ticks: 0 }), costTicks: null });
    w = mount(UsageSummary, { props: { metrics } });
    const reasoning = w.findAll('dl > div').find((d) => d.find('dt').text() === 'Reasoning')!;
    expect(reasoning.find('dd').text()).toBe('—');
    expect(reasoning.attributes('title')).toMatch(/included in Out/);
    expect(figures(w)).toContain('Cost —');
  });

  it('labels the first byte as such when the first token was not recorded', () => {
    w = mount(UsageSummary, { props: { metrics: runMetrics({ timings: { ttfbMs: 300, totalMs: 900 } }) } });
    expect(figures(w)[0]).toBe('First byte 300 ms');
  });
});
