import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import CitationList from '@/components/run/CitationList.vue';
import RunOutput from '@/components/run/RunOutput.vue';

let w: VueWrapper | undefined;
afterEach(() => w?.unmount());

describe('CitationList', () => {
  it('labels sources under .invalid as synthetic sandbox sources', () => {
    w = mount(CitationList, {
      props: { citations: [{ url: 'https://sandbox.invalid/a', title: 'Synthetic source 1' }, { url: 'https://sandbox.invalid/b' }], numSourcesUsed: 2 },
    });
    expect(w.text()).toContain('synthetic sources from the sandbox');
    expect(w.text()).toContain('(2 used)');
    expect(w.findAll('a').map((a) => a.attributes('href'))).toEqual(['https://sandbox.invalid/a', 'https://sandbox.invalid/b']);
    expect(w.find('a').attributes('rel')).toContain('noopener');
  });

  it('does not call real sources synthetic', () => {
    w = mount(CitationList, { props: { citations: [{ url: 'https://example.com/page' }] } });
    expect(w.text()).not.toContain('synthetic');
  });
});

describe('RunOutput', () => {
  it('shows citations when the run has them and nothing when it has none', () => {
    const base = { phase: 'completed' as const, choices: [], usage: null, costTicks: null, error: null, isSandbox: true };
    w = mount(RunOutput, { props: { ...base, citations: [{ url: 'https://sandbox.invalid/x', title: 'Synthetic source' }] }, global: { stubs: { SandboxTag: true, UsageSummary: true } } });
    expect(w.find('[aria-label="Sources"]').exists()).toBe(true);
    w.unmount();
    w = mount(RunOutput, { props: base, global: { stubs: { SandboxTag: true, UsageSummary: true } } });
    expect(w.find('[aria-label="Sources"]').exists()).toBe(false);
  });
});
