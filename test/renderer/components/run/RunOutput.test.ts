import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import RunOutput from '@/components/run/RunOutput.vue';
import { emptyChoice } from '@/lib/chat-output';
import { formatTime } from '@/lib/format';

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

describe('RunOutput, a deferred run waiting out an outage', () => {
  const wait = { since: 1_780_000_000_000, failures: 14, reason: 'The service is unavailable or failing (503).', nextAttemptAt: 1_780_000_030_000, message: 'The service is overloaded or unavailable (503): down' };

  it('says it waits, why, how many tries since when, and when it tries next; Retry now asks for the next try at once', async () => {
    w = mount(RunOutput, {
      props: { phase: 'pending', choices: [], usage: null, costTicks: null, error: null, isSandbox: false, polls: 3, waiting: wait },
      global: { plugins: [[PrimeVue, { theme: 'none' }]], stubs: { StreamingMarkdown: true, UsageSummary: true } },
    });
    const text = w.text();
    expect(text).toContain('Waiting for the service.');
    expect(text).toContain('The service is unavailable or failing (503).');
    expect(text).toContain(`14 tries failed since ${formatTime(wait.since)}`);
    expect(w.find('.next-attempt').text()).toBe(`next try at ${formatTime(wait.nextAttemptAt)}`);
    expect(text).toContain('Last error: The service is overloaded or unavailable (503): down');
    await w.find('button').trigger('click');
    expect(w.emitted('retryNow')).toHaveLength(1);
  });

  it('says nothing of waiting once the service answers again', () => {
    w = mount(RunOutput, {
      props: { phase: 'pending', choices: [], usage: null, costTicks: null, error: null, isSandbox: false, polls: 3, waiting: null },
      global: { plugins: [[PrimeVue, { theme: 'none' }]], stubs: { StreamingMarkdown: true, UsageSummary: true } },
    });
    expect(w.text()).not.toContain('Waiting for the service');
    expect(w.find('.next-attempt').exists()).toBe(false);
  });
});
