/**
 * History's entry for a recorded realtime call: the session (tracks, figures, timeline) with the
 * call's transcript, both sides in conversation order, a cut answer said.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import HistoryEntryView from '@/views/HistoryEntryView.vue';
import type { Endpoint } from '@shared/contract/runs';
import { formatTicks } from '@shared/pricing';
import { mountWithApp, type Mounted } from '../../mount-app';
import { makeRecord } from '../../fake-data';
import { makeFakeSession } from '../../fake-session';

vi.mock('wavesurfer.js', () => import('../../components/audio/fake-wavesurfer'));

let m: Mounted;
afterEach(() => {
  m?.wrapper.unmount();
  document.body.innerHTML = '';
});

describe('RealtimeCallDetails (History)', () => {
  it("shows a call's session and its transcript, both sides in order, the cut answer said", async () => {
    const output = {
      object: 'realtime_call',
      transcript: [
        { itemId: 'i1', role: 'user', text: 'What is the weather?', interim: false, status: 'done', truncatedAtMs: null, source: 'audio' },
        { itemId: 'i2', role: 'assistant', text: 'It is sunny and', interim: false, status: 'truncated', truncatedAtMs: 820, source: 'audio' },
      ],
    };
    const run = makeRecord({ id: 'run-rt', endpoint: 'realtime.call' as Endpoint, model: 'svc-voice-latest', events: [], output });
    m = await mountWithApp(HistoryEntryView, { route: '/history/run-rt', props: { id: 'run-rt' }, fake: { history: [run], sessions: { 'run-rt': makeFakeSession({ kind: 'realtime' }) } } });
    await flushPromises();
    expect(document.querySelector('[aria-label="Session timeline"]')).not.toBeNull();
    const lines = [...document.querySelectorAll('[data-testid="call-transcript"] li')].map((li) => li.textContent!.replace(/\s+/g, ' ').trim());
    expect(lines).toEqual(['You: What is the weather?', 'Model: It is sunny and (cut where it was heard)']);
    expect(document.querySelector('[data-test="session-problems"]')).toBeNull();
    expect(document.querySelector('[data-testid="call-recovered"]')).toBeNull(); // a call that ended cleanly
  });

  it('says a call rebuilt after the app ended abnormally was recovered, with its cost', async () => {
    const output = {
      object: 'realtime_call',
      recovered: true,
      costTicks: 15_140_000,
      transcript: [
        { itemId: 'i1', role: 'user', text: 'Tell me a story.', interim: false, status: 'done', truncatedAtMs: null, source: 'audio' },
        { itemId: 'i2', role: 'assistant', text: 'Once upon', interim: true, status: 'in_progress', truncatedAtMs: null, source: 'audio' },
      ],
    };
    const run = makeRecord({ id: 'run-rec', endpoint: 'realtime.call' as Endpoint, model: 'svc-voice-latest', status: 'incomplete', events: [], output, costTicks: 15_140_000 });
    m = await mountWithApp(HistoryEntryView, { route: '/history/run-rec', props: { id: 'run-rec' }, fake: { history: [run], sessions: { 'run-rec': makeFakeSession({ kind: 'realtime', state: 'crashed' }) } } });
    await flushPromises();
    const note = document.querySelector('[data-testid="call-transcript"] [data-testid="call-recovered"]');
    expect(note?.textContent?.trim()).toBe('Recovered after the app ended abnormally: transcript and recording up to that moment.');
    const lines = [...document.querySelectorAll('[data-testid="call-transcript"] li')].map((li) => li.textContent!.replace(/\s+/g, ' ').trim());
    expect(lines).toEqual(['You: Tell me a story.', 'Model: Once upon']);
    const facts = [...document.querySelectorAll('.facts dt')].map((dt) => [dt.textContent!.trim(), dt.nextElementSibling!.textContent!.trim()]);
    expect(Object.fromEntries(facts).Cost).toBe(formatTicks(15_140_000));
  });

  it('lists the problems the call lived through (its error marks), not left in the timeline only', async () => {
    const run = makeRecord({ id: 'run-rt2', endpoint: 'realtime.call' as Endpoint, model: 'svc-voice-latest', events: [], output: { object: 'realtime_call', transcript: [] } });
    const marks = [
      { type: 'first_audio' as const, t: 340, eventIndex: 3 },
      { type: 'error' as const, t: 2_500, eventIndex: 9, data: { code: 'tool_error', tool: 'get_weather', message: 'The tool get_weather failed (auto-responder): down.' } },
    ];
    m = await mountWithApp(HistoryEntryView, { route: '/history/run-rt2', props: { id: 'run-rt2' }, fake: { history: [run], sessions: { 'run-rt2': makeFakeSession({ kind: 'realtime', marks }) } } });
    await flushPromises();
    const problems = document.querySelector('[role="alert"][data-test="session-problems"]');
    expect(problems?.textContent).toContain('Problems during the session');
    expect([...problems!.querySelectorAll('li')].map((li) => li.textContent!.replace(/\s+/g, ' ').trim())).toEqual([expect.stringMatching(/The tool get_weather failed \(auto-responder\): down\.$/)]);
  });
});
