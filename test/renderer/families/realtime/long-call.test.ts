/**
 * A long, busy call stays cheap to draw (the figures: test/bench/realtime-event-log-chromium.ts):
 * the store draws its state at most once a frame however many messages came; the transcript draws
 * its newest 200 entries and the latency panel lists its newest 50 turns, the earlier ones on request.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import { RealtimeCallInputSchema, initialRealtimeCallSnapshot, type RealtimeCallEvent, type RealtimeTranscriptEntry } from '@shared/realtime-call';
import type { SessionMark } from '@shared/session-metrics';
import CallTranscript from '@/families/realtime/components/CallTranscript.vue';
import LatencyPanel from '@/families/realtime/components/LatencyPanel.vue';
import { mountWithApp, type Mounted } from '../../mount-app';

vi.mock('@/bridge/media', () => ({ mediaChannel: () => ({ onFrame: () => () => undefined, send: () => undefined }) }));
vi.mock('@/audio/page-capture', () => ({ PageCapture: { start: vi.fn() } }));
const { default: RealtimeView } = await import('@/families/realtime/views/RealtimeView.vue');
const { useRealtimeCallStore } = await import('@/families/realtime/stores/realtime-call');

let m: Mounted;
afterEach(() => {
  vi.unstubAllGlobals();
  m?.wrapper.unmount();
  window.sessionStorage.clear();
});

const entry = (i: number): RealtimeTranscriptEntry => ({ itemId: `item_${i}`, role: i % 2 ? 'assistant' : 'user', text: `words ${i}`, interim: false, status: 'done', truncatedAtMs: null, source: 'text' });
/** Animation frames held until run() (each run is one frame: the callbacks queued before it). */
function holdFrames(): { queue: FrameRequestCallback[]; run: () => Promise<void> } {
  const queue: FrameRequestCallback[] = [];
  vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => queue.push(cb));
  return {
    queue,
    run: async () => {
      for (const cb of queue.splice(0)) cb(performance.now());
      await flushPromises();
    },
  };
}
const texts = (sel: string) => [...document.querySelectorAll(sel)].map((e) => e.textContent!.replace(/\s+/g, ' ').trim());

describe('a long call', () => {
  it('the store draws once a frame, the log and the state in turns: a burst of 100 messages is one update of each', async () => {
    m = await mountWithApp(RealtimeView, { route: '/realtime' });
    const start = m.fake.live.start;
    const input = RealtimeCallInputSchema.parse({ microphone: { kind: 'native' }, output: { kind: 'native' } });
    m.fake.live.start = async (req) => {
      const started = await start(req);
      m.fake.controls.live.sessions.get(started.id)!.snapshot = { ...initialRealtimeCallSnapshot(input, 'run_long'), status: 'live' };
      return started;
    };
    await m.wrapper.find('[data-test="call-start"]').trigger('click');
    await flushPromises();
    const id = [...m.fake.controls.live.sessions.keys()][0]!;
    const store = useRealtimeCallStore();
    const frames = holdFrames();
    const versions = [store.stateVersion, store.logVersion];
    for (let i = 0; i < 100; i++) {
      const events: RealtimeCallEvent[] = [
        { type: 'transcript', itemId: 'item_a1', role: 'assistant', text: `w${i} `, mode: 'delta', final: false, source: 'audio' },
        { type: 'wire', direction: 'in', t: i, eventType: 'response.output_audio_transcript.delta', data: { type: 'response.output_audio_transcript.delta', item_id: 'item_a1', delta: `w${i} ` } },
      ];
      for (const e of events) m.fake.controls.live.emit(id, e);
    }
    await flushPromises();
    expect(frames.queue).toHaveLength(1);
    // The first frame draws the log only; the state (the transcript) comes in the next one.
    await frames.run();
    expect([store.stateVersion - versions[0]!, store.logVersion - versions[1]!]).toEqual([0, 1]);
    await frames.run();
    expect([store.stateVersion - versions[0]!, store.logVersion - versions[1]!]).toEqual([1, 1]);
    // Nothing more to draw (the frame after is the transcript's scroll to its end).
    await frames.run();
    expect([store.stateVersion - versions[0]!, store.logVersion - versions[1]!]).toEqual([1, 1]);
    // Everything that came is drawn.
    expect(texts('[data-test="transcript-assistant"]')[0]).toContain('w0 w1');
    expect(texts('[data-test="transcript-assistant"]')[0]).toContain('w99');
    expect(texts('[data-test="log-type"]')).toEqual(['response.output_audio_transcript.delta ×100']);
  });

  it('the transcript draws its newest 200 entries; earlier ones 200 at a time on request', async () => {
    const entries = Array.from({ length: 500 }, (_, i) => entry(i));
    m = await mountWithApp(CallTranscript, { props: { entries, dropped: 0, version: 1 } });
    await flushPromises();
    let drawn = texts('.entry');
    expect(drawn).toHaveLength(200);
    expect(drawn[0]).toContain('words 300');
    expect(drawn.at(-1)).toContain('words 499');
    const earlier = m.wrapper.find('[data-test="transcript-earlier"]');
    expect(earlier.text()).toBe('Show 200 earlier of 300');
    await earlier.trigger('click');
    drawn = texts('.entry');
    expect(drawn).toHaveLength(400);
    expect(drawn[0]).toContain('words 100');
    await m.wrapper.find('[data-test="transcript-earlier"]').trigger('click');
    expect(texts('.entry')).toHaveLength(500);
    expect(m.wrapper.find('[data-test="transcript-earlier"]').exists()).toBe(false);
  }, 30_000);

  it('the latency panel lists its newest 50 turns (5 drawn as timelines); earlier ones on request; p50 over every turn', async () => {
    let index = 0;
    const marks: SessionMark[] = [];
    for (let turn = 0; turn < 120; turn++) {
      const t = turn * 10_000;
      // Turn k answers in 100 + k ms: the median over all 120 turns is 159.5 ms.
      for (const [type, at] of [['speech_started', t], ['speech_stopped', t + 1_000], ['first_audio', t + 1_100 + turn], ['response_done', t + 3_000]] as const) marks.push({ type, t: at, eventIndex: index++ });
    }
    m = await mountWithApp(LatencyPanel, { props: { marks } });
    await flushPromises();
    expect(document.querySelectorAll('[data-test="turn-line"]')).toHaveLength(45);
    expect(texts('[data-test="turn-line"]').at(-1)).toMatch(/^Turn 71:/);
    expect(m.wrapper.find('[data-test="turns-earlier"]').text()).toBe('Show 50 earlier of 70 turns');
    expect(m.wrapper.find('[data-test="p50-first-audio"]').text()).toMatch(/^15\d/);
    await m.wrapper.find('[data-test="turns-earlier"]').trigger('click');
    expect(document.querySelectorAll('[data-test="turn-line"]')).toHaveLength(95);
    expect(m.wrapper.find('[data-test="turns-earlier"]').text()).toBe('Show 20 earlier of 20 turns');
    // An older turn's numbers change (a first sample played, marked late): its line says so.
    const line = () => texts('[data-test="turn-line"]').find((l) => l.startsWith('Turn 100:'));
    expect(line()).toMatch(/first played —|first played -/);
    await m.wrapper.setProps({ marks: [...marks, { type: 'first_played', t: 99 * 10_000 + 1_500, eventIndex: index++, turn: 100 }] });
    expect(line()).toMatch(/first played 500 ms/);
  }, 30_000);
});
