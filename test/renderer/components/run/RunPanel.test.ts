import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import { defineComponent, h, reactive } from 'vue';
import RunPanel from '@/components/run/RunPanel.vue';
import type { RunView } from '@/components/run/run-view';
import { emptyChoice } from '@/lib/chat-output';
import { makeRecord } from '../../fake-data';

let w: VueWrapper | undefined;
afterEach(() => {
  w?.unmount();
  document.body.innerHTML = '';
});

const InspectorStub = defineComponent({
  props: { record: { type: Object, required: true } },
  setup: (props) => () => h('div', { class: 'inspector-stub' }, (props.record as { id: string }).id),
});

function runOf(over: Partial<RunView> = {}): RunView {
  const choice = (index: number, content: string) => ({ ...emptyChoice(index), content });
  return reactive({
    phase: 'completed', choices: [choice(0, 'Hello there')], usage: null, costTicks: null, error: null, isSandbox: true, polls: 0,
    retryNote: null, ttfbMs: null, record: null, retries: 0, meta: {}, ...over,
  }) as RunView;
}

function mountPanel(props: { run: RunView; prompts?: string[]; n?: number }, slots: Record<string, string> = {}): VueWrapper {
  return mount(RunPanel, {
    props,
    slots,
    attachTo: document.body,
    global: { plugins: [[PrimeVue, { theme: 'none' }]], stubs: { RunInspector: InspectorStub, StreamingMarkdown: true, UsageSummary: true } },
  });
}

const buttonNamed = (name: string) => [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === name);

describe('RunPanel', () => {
  it('shows the view\'s actions and no Inspector before the run is recorded', () => {
    w = mountPanel({ run: runOf({ phase: 'running' }) }, { actions: '<button>Add to conversation</button>', default: '<p class="extra">stop_reason</p>' });
    expect(w.find('[aria-label="Output"]').exists()).toBe(true);
    expect(buttonNamed('Add to conversation')).toBeTruthy();
    expect(buttonNamed('Inspector')).toBeUndefined();
    expect(w.find('.extra').exists()).toBe(true);
  });

  it('opens the recorded run in the inspector drawer', async () => {
    const record = makeRecord();
    w = mountPanel({ run: runOf({ record }) });
    expect(document.querySelector('.inspector-stub')).toBeNull();
    buttonNamed('Inspector')!.click();
    await flushPromises();
    expect(document.querySelector('.inspector-stub')?.textContent).toBe(record.id);
  });

  it('groups legacy completions choices per prompt when given the prompts sent', () => {
    const choice = (index: number, content: string) => ({ ...emptyChoice(index), content });
    const run = runOf({ choices: [choice(0, 'a0'), choice(1, 'a1'), choice(2, 'b0'), choice(3, 'b1')] });
    w = mountPanel({ run, prompts: ['First prompt', 'Second prompt'], n: 2 });
    expect(w.findAll('.prompt-head').map((e) => e.text())).toEqual(['Prompt 1 First prompt', 'Prompt 2 Second prompt']);
    expect(w.findAll('article.choice-col').map((a) => a.attributes('aria-label'))).toEqual(['prompt 1, choice 1', 'prompt 1, choice 2', 'prompt 2, choice 1', 'prompt 2, choice 2']);
  });
});
