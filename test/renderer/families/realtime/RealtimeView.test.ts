/**
 * The call console as a user works it, against a fake of the live session (the fake workbench's
 * `live` family) fed with the `realtime` kind's own events (shared/realtime-call, folded by the
 * same applyRealtimeCallEvent main uses): the form starts a call with an input the kind's schema
 * accepts; both transcripts grow, interim in place then final; the event log folds deltas and
 * shows a row's JSON; latency numbers per turn and p50/p95; a dropped socket is said at once
 * with Reconnect; push-to-talk with Space outside fields; a minted secret counts down; a tool call
 * is answered by hand.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import { RealtimeCallControlSchema, RealtimeCallInputSchema, initialRealtimeCallSnapshot, type RealtimeCallEvent, type RealtimeCallSnapshot } from '@shared/realtime-call';
import { mountWithApp, type Mounted } from '../../mount-app';
import { makeFakeSession } from '../../fake-session';
import type { FakeWorkbenchOptions } from '../../fake-workbench';

/** The media channel's frame handlers by stream id: a test delivers frames main's media process would send. */
const media = vi.hoisted(() => ({ handlers: new Map<number, (frame: { payload: Uint8Array }) => void>() }));
vi.mock('@/bridge/media', () => ({
  mediaChannel: () => ({
    onFrame: (stream: number, fn: (frame: { payload: Uint8Array }) => void) => (media.handlers.set(stream, fn), () => media.handlers.delete(stream)),
    send: () => undefined,
  }),
}));
const capture = vi.hoisted(() => ({ start: vi.fn() }));
vi.mock('@/audio/page-capture', () => ({ PageCapture: { start: capture.start } }));
const { default: RealtimeView } = await import('@/families/realtime/views/RealtimeView.vue');
const { useRealtimeCallStore, REALTIME_CALL_KEY } = await import('@/families/realtime/stores/realtime-call');

let m: Mounted;
afterEach(() => {
  m?.wrapper.unmount();
  capture.start.mockReset();
  media.handlers.clear();
  window.sessionStorage.clear();
});

/** A call as main would start it from `input` (native microphone: no page capture in these tests). */
function liveSnapshot(over: Partial<RealtimeCallSnapshot> = {}): RealtimeCallSnapshot {
  const input = RealtimeCallInputSchema.parse({ model: 'svc-voice-latest', microphone: { kind: 'native' }, output: { kind: 'native' } });
  return { ...initialRealtimeCallSnapshot(input, 'run_call1'), status: 'live', ...over };
}

async function mountView(first: RealtimeCallSnapshot, fake?: FakeWorkbenchOptions): Promise<void> {
  m = await mountWithApp(RealtimeView, { route: '/realtime', fake });
  const start = m.fake.live.start;
  m.fake.live.start = async (req) => {
    const started = await start(req);
    m.fake.controls.live.sessions.get(started.id)!.snapshot = first;
    return started;
  };
}

/** Starts a call from the form; answers its id. */
async function startCall(): Promise<string> {
  await m.wrapper.find('[data-test="call-start"]').trigger('click');
  await drawn();
  return [...m.fake.controls.live.sessions.keys()][0]!;
}

function emitAll(id: string, events: RealtimeCallEvent[]): void {
  for (const e of events) m.fake.controls.live.emit(id, e);
}

/** What the call's attachment sent (control messages), parsed as main would. */
function sent(id: string): unknown[] {
  return m.fake.controls.live.sessions.get(id)!.attachments.flatMap((a) => a.sent).map((msg) => RealtimeCallControlSchema.parse(msg));
}

const texts = (sel: string) => [...document.querySelectorAll(sel)].map((e) => e.textContent!.replace(/\s+/g, ' ').trim());
const frame = () => new Promise((r) => setTimeout(r, 20));
/**
 * Promises settled and the console drawn: the store draws one part of it a frame (the log, the
 * state, the latency panel in turns), so what came is on screen within three frames.
 */
async function drawn(): Promise<void> {
  for (let i = 0; i < 4; i++) await flushPromises();
}

describe('RealtimeView', () => {
  it('is a view with a heading, and starts a call with an input the realtime kind accepts', async () => {
    await mountView(liveSnapshot());
    expect(document.querySelector('.view h1')?.textContent).toBe('Realtime call console');
    const id = await startCall();
    const session = m.fake.controls.live.sessions.get(id)!;
    expect(session.summary.kind).toBe('realtime');
    const parsed = RealtimeCallInputSchema.safeParse(session.input);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(parsed.data).toMatchObject({ auth: 'key', model: 'svc-voice-latest', turnDetection: { type: 'server_vad', threshold: 0.5 }, microphone: { kind: 'page' } });
    await drawn();
    expect(document.querySelector('[data-test="call-status"]')?.textContent).toBe('Live');
  });

  it("Code tab: the form's current call as the TypeScript and Python WebSocket programs (no curl), following the form", async () => {
    await mountView(liveSnapshot());
    await m.wrapper.find('[data-test="rt-instructions"]').setValue('Answer like a pirate.');
    await m.wrapper.find('[data-test="turn-ptt"]').setValue(true);
    await m.wrapper.find('[data-test="tab-code"]').trigger('click');
    await drawn();
    const ts = m.wrapper.find('[data-test="call-code-text"]').text();
    expect(ts).toContain('new WebSocket');
    expect(ts).toContain('Answer like a pirate.');
    expect(ts).toContain('"turn_detection": null');
    expect(ts).toContain('client_secrets');
    expect(ts).not.toMatch(/^curl /m);
    await m.wrapper.find('[data-lang="python"]').trigger('click');
    await drawn();
    const py = m.wrapper.find('[data-test="call-code-text"]').text();
    expect(py).toContain('import');
    expect(py).toContain('Answer like a pirate.');
    expect(py).not.toBe(ts);
    // Back to the form: it kept what was typed, and a change shows in the code.
    await m.wrapper.find('[data-test="tab-settings"]').trigger('click');
    expect((m.wrapper.find('[data-test="rt-instructions"]').element as HTMLTextAreaElement).value).toBe('Answer like a pirate.');
    await m.wrapper.find('[data-test="rt-instructions"]').setValue('Speak French.');
    await m.wrapper.find('[data-test="tab-code"]').trigger('click');
    await drawn();
    expect(m.wrapper.find('[data-test="call-code-text"]').text()).toContain('Speak French.');
  });

  it('shows both sides as they speak: interim replaced in place, then final; latency numbers per turn and p50/p95', async () => {
    await mountView(liveSnapshot());
    const id = await startCall();
    emitAll(id, [
      { type: 'turn', turn: 1, userItemId: 'item_u1' },
      { type: 'mark', turn: 1, mark: 'speech_started', t: 1_000 },
      { type: 'transcript', itemId: 'item_u1', role: 'user', text: 'what is the', mode: 'replace', final: false, source: 'audio' },
    ]);
    await drawn();
    expect(texts('[data-test="transcript-user"]')).toEqual(['You: what is the']);
    expect(document.querySelector('[data-test="transcript-user"]')!.getAttribute('data-interim')).toBe('true');

    emitAll(id, [
      { type: 'transcript', itemId: 'item_u1', role: 'user', text: 'what is the weather', mode: 'replace', final: true, source: 'audio' },
      { type: 'mark', turn: 1, mark: 'speech_stopped', t: 2_000 },
      { type: 'transcript', itemId: 'item_a1', role: 'assistant', text: 'It is ', mode: 'delta', final: false, source: 'audio' },
      { type: 'mark', turn: 1, mark: 'first_audio', t: 2_240 },
      { type: 'mark', turn: 1, mark: 'first_played', t: 2_300 },
      { type: 'transcript', itemId: 'item_a1', role: 'assistant', text: 'sunny.', mode: 'delta', final: false, source: 'audio' },
    ]);
    await drawn();
    expect(document.querySelector('[data-test="transcript-assistant"]')!.getAttribute('data-interim')).toBe('true');
    // The answer's transcript done: the same words, now final (only the flag changes).
    emitAll(id, [
      { type: 'transcript', itemId: 'item_a1', role: 'assistant', text: '', mode: 'delta', final: true, source: 'audio' },
      { type: 'mark', turn: 1, mark: 'response_done', t: 3_000 },
    ]);
    await drawn();
    expect(texts('[data-test="transcript-user"]')).toEqual(['You: what is the weather']);
    expect(texts('[data-test="transcript-assistant"]')).toEqual(['Model: It is sunny.']);
    expect([...document.querySelectorAll('[data-test^="transcript-"]')].map((e) => e.getAttribute('data-interim'))).toEqual(['false', 'false']);
    // The latency panel is drawn at most every LATENCY_MIN_MS (200 ms) on a busy call.
    await vi.waitFor(() => expect(texts('[data-test="turn-first-audio"]')).toEqual(['end of speech → first audio byte 240 ms']));
    expect(texts('[data-test="turn-first-played"]')).toEqual(['→ first sample played 300 ms']);
    expect([texts('[data-test="p50-first-audio"]'), texts('[data-test="p95-first-played"]')]).toEqual([['240 ms'], ['300 ms']]);
  });

  it("an answer's transcript deltas, logged messages and cost redraw those, not the view's header and controls", async () => {
    await mountView(liveSnapshot());
    const id = await startCall();
    emitAll(id, [{ type: 'transcript', itemId: 'item_a1', role: 'assistant', text: 'It', mode: 'delta', final: false, source: 'audio' }]);
    await drawn();
    await frame();
    // Renders of the view itself counted (its header, controls and PrimeVue buttons are in its render).
    const view = m.wrapper.findComponent(RealtimeView).vm.$ as unknown as { render: (...a: unknown[]) => unknown };
    const render = view.render;
    let renders = 0;
    view.render = function (this: unknown, ...a: unknown[]) {
      renders++;
      return render.apply(this, a);
    };
    for (let i = 0; i < 5; i++) {
      emitAll(id, [
        { type: 'transcript', itemId: 'item_a1', role: 'assistant', text: ` word${i}`, mode: 'delta', final: false, source: 'audio' },
        { type: 'wire', t: 100 + i, direction: 'in', eventType: 'response.output_audio_transcript.delta', data: { type: 'response.output_audio_transcript.delta', item_id: 'item_a1', delta: ` word${i}` } },
        // A priced response (tens a second on a busy call answered in text) changes the cost only.
        { type: 'usage', usage: {}, costTicks: 1_000 },
      ]);
      await drawn();
      await frame();
    }
    expect(texts('[data-test="transcript-assistant"]')).toEqual(['Model: It word0 word1 word2 word3 word4']);
    expect(texts('[data-test="log-type"]')).toEqual(['response.output_audio_transcript.delta ×5']);
    expect(texts('[data-test="call-cost"]')).not.toEqual(['cost: none yet']);
    expect(renders).toBe(0);
    // Something the header shows does redraw it.
    emitAll(id, [{ type: 'muted', muted: true }]);
    await drawn();
    await frame();
    expect(texts('[data-test="call-mute"]')).toEqual(['Unmute']);
    expect(renders).toBeGreaterThan(0);
  });

  it("shows the call's cost as its responses are priced, summed over the call", async () => {
    await mountView(liveSnapshot());
    const id = await startCall();
    expect(texts('[data-test="call-cost"]')).toEqual(['cost: none yet']);
    emitAll(id, [{ type: 'usage', usage: { responses: 1, inputTokens: 1200, outputTokens: 1425 }, costTicks: 27_596_000 }]);
    await drawn();
    expect(texts('[data-test="call-cost"]')).toEqual(['cost $0.00276']);
    emitAll(id, [{ type: 'usage', usage: { responses: 2 }, costTicks: 10_000_000 }]);
    await drawn();
    expect(texts('[data-test="call-cost"]')).toEqual(['cost $0.00376']);
  });

  it("logs every message both ways, an answer's deltas folded ×N, a row's JSON on demand, filtered by type", async () => {
    await mountView(liveSnapshot());
    const id = await startCall();
    const wire = (t: number, direction: 'in' | 'out', data: { type: string; [k: string]: unknown }): RealtimeCallEvent => ({ type: 'wire', direction, t, eventType: data.type, data });
    emitAll(id, [
      wire(1, 'out', { type: 'session.update', session: { voice: 'eve' } }),
      wire(2, 'in', { type: 'session.updated', session: { voice: 'eve' } }),
      ...Array.from({ length: 12 }, (_, i) => wire(10 + i, 'in', { type: 'response.output_audio.delta', item_id: 'item_a1', delta: { bytes: 960 } })),
      wire(40, 'in', { type: 'response.done', response: { status: 'completed' } }),
    ]);
    await frame();
    await drawn();
    expect(texts('[data-test="log-type"]')).toEqual(['session.update', 'session.updated', 'response.output_audio.delta ×12', 'response.done']);
    await m.wrapper.findAll('[data-test="log-row"]')[0]!.trigger('click');
    expect(JSON.parse(document.querySelector('[data-test="log-json"]')!.textContent!)).toEqual({ type: 'session.update', session: { voice: 'eve' } });
    await m.wrapper.find('[data-test="log-filter-text"]').setValue('audio');
    expect(texts('[data-test="log-type"]')).toEqual(['response.output_audio.delta ×12']);
  });

  it('says a dropped connection at once, keeps the transcript, and offers Reconnect', async () => {
    await mountView(liveSnapshot());
    const id = await startCall();
    emitAll(id, [{ type: 'transcript', itemId: 'item_u1', role: 'user', text: 'hello', mode: 'replace', final: true, source: 'audio' }]);
    await drawn();
    expect(document.querySelector('[data-test="call-dropped"]')).toBeNull();
    emitAll(id, [{ type: 'dropped', code: 'connection_closed', message: 'The service closed the socket (1006).', t: 5_000 }]);
    await drawn();
    const alert = document.querySelector('[role="alert"][data-test="call-dropped"]');
    expect(alert?.textContent).toContain('The service closed the socket (1006).');
    expect(texts('[data-test="transcript-user"]')).toEqual(['You: hello']);
    await m.wrapper.find('[data-test="call-reconnect"]').trigger('click');
    await drawn();
    expect(sent(id)).toEqual([{ type: 'reconnect' }]);
  });

  it("says a live call's last problem (a tool that threw); a drop a reconnect got over is not shown as one", async () => {
    await mountView(liveSnapshot());
    const id = await startCall();
    expect(document.querySelector('[data-test="call-error"]')).toBeNull();
    emitAll(id, [{ type: 'error', code: 'tool_error', message: 'The tool get_weather failed (auto-responder): down.', t: 1_000 }]);
    await drawn();
    expect(document.querySelector('[role="alert"][data-test="call-error"]')?.textContent).toContain('The tool get_weather failed (auto-responder): down.');
    emitAll(id, [{ type: 'dropped', code: 'network', message: 'The connection dropped (1006).', t: 5_000 }]);
    await drawn();
    expect(document.querySelector('[data-test="call-error"]')).toBeNull(); // the drop has its own alert
    emitAll(id, [{ type: 'connected', sessionId: 'sess_2', model: null, voice: null, connectedAt: Date.now() + 60_000, attempt: 2, clientSecretExpiresAt: null }]);
    await drawn();
    expect(document.querySelector('[data-test="call-dropped"]')).toBeNull();
    expect(document.querySelector('[data-test="call-error"]')).toBeNull();
  });

  it('talks while Space is held outside a field (push-to-talk): clear on press, commit on release; Space in a field types', async () => {
    await mountView(liveSnapshot({ turnDetection: 'manual' }));
    const id = await startCall();
    window.dispatchEvent(new KeyboardEvent('keydown', { code: 'Space', key: ' ' }));
    await drawn();
    expect(document.querySelector('[data-test="call-ptt"]')?.textContent).toContain('Talking');
    window.dispatchEvent(new KeyboardEvent('keyup', { code: 'Space', key: ' ' }));
    await drawn();
    const field = document.querySelector<HTMLInputElement>('[data-test="call-text"]')!;
    field.dispatchEvent(new KeyboardEvent('keydown', { code: 'Space', key: ' ', bubbles: true }));
    field.dispatchEvent(new KeyboardEvent('keyup', { code: 'Space', key: ' ', bubbles: true }));
    await drawn();
    expect(sent(id)).toEqual([{ type: 'clear' }, { type: 'commit', respond: true }]);
  });

  it("counts down a minted client secret's time left", async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'Date'] });
    try {
      vi.setSystemTime(1_800_000_000_000);
      await mountView(liveSnapshot({ clientSecretExpiresAt: 1_800_000_000 + 125, connection: { ...liveSnapshot().connection, auth: 'client-secret' } }));
      await startCall();
      expect(document.querySelector('[data-test="secret-countdown"]')?.textContent).toBe('client secret 2:05');
      vi.advanceTimersByTime(6_000);
      await drawn();
      expect(document.querySelector('[data-test="secret-countdown"]')?.textContent).toBe('client secret 1:59');
    } finally {
      vi.useRealTimers();
    }
  });

  it('takes a manual answer to a tool call the auto-responder does not answer', async () => {
    await mountView(liveSnapshot());
    const id = await startCall();
    emitAll(id, [{ type: 'tool-call', call: { callId: 'call_1', name: 'lookup', arguments: '{"city":"Oslo"}', itemId: null, responseId: null, at: 10, answeredBy: 'window' } }]);
    await drawn();
    await m.wrapper.find('[data-test="tool-output"]').setValue('{"temp":3}');
    await m.wrapper.find('form.answer').trigger('submit');
    await drawn();
    expect(sent(id)).toEqual([{ type: 'tool-output', callId: 'call_1', output: '{"temp":3}', respond: true }]);
    emitAll(id, [{ type: 'tool-answered', callId: 'call_1', output: '{"temp":3}', by: 'window', error: null }]);
    await drawn();
    expect(document.querySelector('[data-test="tool-call"]')).toBeNull();
  });

  it("exports the whole call as JSONL from its recording, page by page (not only the rows the log still holds)", async () => {
    // 1,200 events recorded (three timeline pages) and two marks, which are not messages; every fifth
    // event is the recorder's audio event (where a span of audio went in its track), not a message either.
    const recorded = makeFakeSession({ events: 1_200 });
    await mountView(liveSnapshot(), { sessions: { run_call1: recorded } });
    await startCall();
    const lines = (await (await useRealtimeCallStore().exportJsonl()).text()).trim().split('\n').map((l) => JSON.parse(l) as { t: number; direction: string; message: { seq?: number } });
    expect(lines).toHaveLength(960);
    expect(lines[3]).toEqual({ t: 60, direction: 'in', message: { type: 'transcript.partial', seq: 3, text: 'word 3' } });
    expect(lines.filter((l) => (l.message as { type?: string }).type === 'audio.delta')).toEqual([]);
    expect(lines.at(-1)!.t).toBe(1_198 * 20);
    expect(m.fake.controls.calls.filter((c) => c.method === 'history.timeline').map((c) => (c.input as { offset: number }).offset)).toEqual([0, 500, 1_000]);
  });

  it('explains a call that failed (a refused key), keeps its transcript and log, and offers a new call', async () => {
    await mountView(liveSnapshot());
    const id = await startCall();
    emitAll(id, [
      { type: 'transcript', itemId: 'item_u1', role: 'user', text: 'hi', mode: 'replace', final: true, source: 'audio' },
      { type: 'error', code: 'invalid_api_key', message: 'The service refused the key (401): check the connection.', t: 10 },
      { type: 'status', status: 'failed' },
    ]);
    await drawn();
    expect(document.querySelector('[data-test="call-ended"]')?.textContent).toBe('Failed: The service refused the key (401): check the connection.');
    expect(texts('[data-test="transcript-user"]')).toEqual(['You: hi']);
    expect(m.wrapper.find('[data-test="call-start"]').exists()).toBe(true);
    expect(m.wrapper.find('[data-test="call-hangup"]').exists()).toBe(false);
  });

  it('fills the log with the messages said before it attached (read back from the recording), then the live ones, in order', async () => {
    // The call had said 3 messages when this window attached; the recording has them (and a mark).
    const recorded = makeFakeSession({ events: 3 });
    await mountView(liveSnapshot({ wireEvents: 3 }), { sessions: { run_call1: recorded } });
    const id = await startCall();
    emitAll(id, [{ type: 'wire', direction: 'in', t: 500, eventType: 'response.done', data: { type: 'response.done' } }]);
    await vi.waitFor(() => expect(texts('[data-test="log-type"]')).toEqual(['text.delta', 'transcript.partial', 'text.delta', 'response.done']));
    expect(document.querySelector('[data-test="log-older"]')).toBeNull();
  });

  it("moves the meter from the levels main's media process sends (a native microphone the page never hears)", async () => {
    await mountView(liveSnapshot({ streams: { mic: -1, levels: 7, playback: -1 } }));
    await startCall();
    await drawn();
    await expect.poll(() => media.handlers.has(7)).toBe(true);
    expect(capture.start).not.toHaveBeenCalled();
    const level = (rms: number) => {
      const payload = new Uint8Array(8);
      new DataView(payload.buffer).setFloat32(0, rms);
      new DataView(payload.buffer).setFloat32(4, rms + 3);
      media.handlers.get(7)!({ payload });
    };
    level(-20);
    await drawn();
    const meter = m.wrapper.find('[role="meter"]');
    expect(meter.attributes('aria-valuenow')).toBe('-20');
    // -60..0 dBFS across the bar: -20 is two thirds.
    expect(parseFloat((meter.find('.meter-fill').element as HTMLElement).style.width)).toBeCloseTo(66.67, 1);
    level(-100);
    await drawn();
    expect(meter.attributes('aria-valuenow')).toBe('-100');
    expect((meter.find('.meter-fill').element as HTMLElement).style.width).toBe('0%');
  });

  it("a SIP call: the header says it is a phone call from/to, and shows the caller's keys as they are pressed", async () => {
    const input = RealtimeCallInputSchema.parse({ callId: 'rtc_sip1', microphone: { kind: 'none' }, output: { kind: 'none' } });
    const snap: RealtimeCallSnapshot = { ...initialRealtimeCallSnapshot(input, 'run_sip1'), status: 'live' };
    await mountView(snap);
    m.fake.controls.sip.calls = [
      { callId: 'rtc_other', from: '+15550000000', to: '+15559999999', at: 1, state: 'answered', liveSessionId: null, mediaSessionId: null, problem: null, sandbox: true, digits: '', endReason: null },
      { callId: 'rtc_sip1', from: '+15551234567', to: '+15557654321', at: 2, state: 'answered', liveSessionId: 'live_s', mediaSessionId: null, problem: null, sandbox: true, digits: '', endReason: null },
    ];
    expect(m.wrapper.find('[data-test="phone-call"]').exists()).toBe(false);
    const id = await startCall();
    await drawn();
    expect(m.wrapper.find('[data-test="phone-call-title"]').text()).toBe('Phone call from +15551234567 to +15557654321');
    expect(m.wrapper.find('[data-test="phone-call"]').text()).toContain('rtc_sip1');
    expect(m.wrapper.find('[data-test="dtmf-digits"]').text()).toBe('none yet');
    const key = (digit: string, t: number): RealtimeCallEvent => ({ type: 'wire', direction: 'in', t, eventType: 'input_audio_buffer.dtmf_event_received', data: { type: 'input_audio_buffer.dtmf_event_received', event: digit, received_at: t } });
    emitAll(id, [key('1', 100), key('2', 200), { type: 'wire', direction: 'in', t: 250, eventType: 'response.created', data: { type: 'response.created' } }, key('#', 300)]);
    await drawn();
    expect(m.wrapper.find('[data-test="dtmf-digits"]').text()).toBe('12#');
  });

  it('a SIP call answered from the banner: an idle console shows it (its realtime session attached) and follows its state to the end, not other calls', async () => {
    await mountView(liveSnapshot());
    const input = RealtimeCallInputSchema.parse({ callId: 'rtc_sip2', microphone: { kind: 'none' }, output: { kind: 'none' } });
    // The realtime session main started for the call when it was answered (origin main).
    m.fake.controls.live.sessions.set('live_rt_sip2', {
      summary: { id: 'live_rt_sip2', kind: 'realtime', origin: 'main', status: 'running', state: 'live', startedAt: 0, endedAt: null, endReason: null, error: null, attachments: 0 },
      input,
      snapshot: { ...initialRealtimeCallSnapshot(input, 'run_sip2'), status: 'live' },
      seq: 0,
      attachments: [],
    });
    const call = { callId: 'rtc_sip2', from: '+15551234567', to: '+15557654321', at: 2, state: 'ringing' as const, liveSessionId: 'live_s', mediaSessionId: null, problem: null, sandbox: true, digits: '', endReason: null };
    m.fake.controls.sip.ring(call);
    await drawn();
    expect(m.wrapper.find('[data-test="phone-call"]').exists()).toBe(false);
    m.fake.controls.sip.ring({ ...call, state: 'answered', mediaSessionId: 'live_rt_sip2' });
    await drawn();
    expect(m.fake.controls.live.attaches).toContain('live_rt_sip2');
    expect(m.wrapper.find('[data-test="phone-call-title"]').text()).toBe('Phone call from +15551234567 to +15557654321');
    const state = () => m.wrapper.find('[data-test="phone-call-state"]');
    expect(state().text()).toBe('Answered');
    // Another call answered meanwhile does not take the console from this one.
    m.fake.controls.sip.ring({ ...call, callId: 'rtc_other', state: 'answered', mediaSessionId: 'live_rt_other' });
    await drawn();
    expect(m.fake.controls.live.attaches).not.toContain('live_rt_other');
    expect(state().text()).toBe('Answered');
    m.fake.controls.sip.ring({ ...call, state: 'ended', mediaSessionId: 'live_rt_sip2', endReason: 'The call was ended by the other side: The caller hung up.' });
    await drawn();
    expect(state().attributes('data-state')).toBe('ended');
    expect(state().text()).toBe('Ended · The call was ended by the other side: The caller hung up.');
  });

  it('after the app was restarted, says the call this tab followed is no longer running (History has it) and offers a new call', async () => {
    window.sessionStorage.setItem(REALTIME_CALL_KEY, 'live_gonewiththerestart');
    m = await mountWithApp(RealtimeView, { route: '/realtime' });
    await drawn();
    expect(m.fake.controls.live.attaches).toEqual(['live_gonewiththerestart']);
    expect(m.wrapper.find('[role="alert"]').text()).toMatch(/no longer running: the app was restarted.*History keeps its recording/);
    expect(m.wrapper.find('[data-test="call-start"]').exists()).toBe(true);
    expect(window.sessionStorage.getItem(REALTIME_CALL_KEY)).toBeNull();
  });

  it('a call without callId is not a phone call', async () => {
    await mountView(liveSnapshot());
    await startCall();
    await drawn();
    expect(m.wrapper.find('[data-test="phone-call"]').exists()).toBe(false);
  });
});
