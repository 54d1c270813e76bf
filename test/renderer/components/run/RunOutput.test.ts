import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import RunOutput from '@/components/run/RunOutput.vue';
import { emptyChoice } from '@/lib/chat-output';

let w: VueWrapper | undefined;
afterEach(() => w?.unmount());

function mountOutput(choices: ReturnType<typeof emptyChoice>[]): VueWrapper {
  return mount(RunOutput, {
    props: { phase: 'cancelled', choices, usage: null, costTicks: null, error: null, isSandbox: true },
    global: { plugins: [[PrimeVue, { theme: 'none' }]], stubs: { StreamingMarkdown: true, UsageSummary: true } },
  });
}

describe('RunOutput, stopped', () => {
  it('says the partial output was kept when some had arrived', () => {
    w = mountOutput([{ ...emptyChoice(0), content: 'Half an ans' }]);
    expect(w.text()).toContain('Stopped: partial output kept.');
  });

  it('does not claim a partial output for a run stopped before any arrived (a pending deferred chat)', () => {
    w = mountOutput([]);
    expect(w.text()).toContain('Stopped before any output arrived.');
    expect(w.text()).not.toContain('partial output kept');
  });
});
