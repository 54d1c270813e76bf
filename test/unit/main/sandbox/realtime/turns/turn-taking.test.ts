/**
 * The turn-taking rules together, as a session drives them: a simulated call appends real speech
 * in 20 ms chunks while the clock moves in step, the model's response sends audio alongside, and
 * the actions that come back are checked in order.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TurnTaking, type TurnAction, type WireTurnDetection } from '../../../../../../main/sandbox/realtime/turns/turn-taking';
import { CHECK_INS } from '../../../../../../main/sandbox/realtime/turns/idle';
import { chunks, concat, silence, speakAt } from './audio';

const rate = 16_000;
const T0 = 1_750_000_000_000;
const vad: WireTurnDetection = { threshold: 0.85, prefix_padding_ms: 300, silence_duration_ms: 500, idle_timeout_ms: null, create_response: true, interrupt_response: true };
const speech = speakAt('Sorry to interrupt, what time is it?', rate);

const open: TurnTaking[] = [];
afterEach(() => {
  for (const t of open.splice(0)) t.dispose();
});

async function session(td: WireTurnDetection | null): Promise<TurnTaking> {
  let n = 0;
  const t = await TurnTaking.create({ sampleRate: rate, turnDetection: td, nowMs: T0, newItemId: () => `item_${++n}` });
  open.push(t);
  return t;
}

/** Appends `pcm` in 20 ms chunks from `startMs` on the clock, running due timers; returns the actions and the end time. */
function play(t: TurnTaking, pcm: Int16Array, startMs: number, onChunk?: () => void): { actions: TurnAction[]; endMs: number } {
  const actions: TurnAction[] = [];
  let now = startMs;
  for (const c of chunks(pcm, rate, 20)) {
    now += 20;
    onChunk?.();
    actions.push(...t.append(c, now));
    const due = t.deadline();
    if (due !== null && due <= now) actions.push(...t.tick(now));
  }
  return { actions, endMs: now };
}

const names = (actions: TurnAction[]) => actions.map((a) => (a.kind === 'send' ? a.type.replace('input_audio_buffer.', '') : a.kind));

describe('TurnTaking', () => {
  it('cuts the model off when the caller speaks, then hands over the turn and asks for an answer', async () => {
    const t = await session(vad);
    t.responseStarted('resp_1');
    const { actions } = play(t, concat(silence(1000, rate), speech, silence(700, rate)), T0, () => {
      if (t.responses.inProgress) t.audioSent('item_model', 20);
    });
    expect(names(actions)).toEqual(['cancel_response', 'speech_started', 'speech_stopped', 'user_audio']);
    const [cancel, started, stopped, turn] = actions;
    if (cancel.kind !== 'cancel_response' || started.kind !== 'send' || stopped.kind !== 'send' || turn.kind !== 'user_audio') throw new Error('shape');
    expect(cancel.cut).toMatchObject({ responseId: 'resp_1', itemId: 'item_model', status: 'cancelled' });
    expect(cancel.cut.audioSentMs).toBeGreaterThanOrEqual(1000);
    expect(cancel.cut.audioSentMs).toBeLessThanOrEqual(1060);
    expect(started.fields).toEqual({ audio_start_ms: expect.any(Number), item_id: 'item_1' });
    expect(stopped.fields).toEqual({ audio_end_ms: expect.any(Number), item_id: 'item_1' });
    expect(turn).toMatchObject({ respond: true, committed: { itemId: 'item_1', audioStartMs: started.fields.audio_start_ms, audioEndMs: stopped.fields.audio_end_ms } });
  });

  it('flushes DTMF digits before the speech that interrupts them, without an answer of their own', async () => {
    const t = await session(vad);
    const keys = t.dtmf('12', T0);
    expect(keys).toEqual([
      { kind: 'send', type: 'input_audio_buffer.dtmf_event_received', fields: { event: '1', received_at: T0 / 1000 } },
      { kind: 'send', type: 'input_audio_buffer.dtmf_event_received', fields: { event: '2', received_at: T0 / 1000 } },
    ]);
    const { actions } = play(t, concat(silence(500, rate), speech, silence(700, rate)), T0);
    expect(names(actions)).toEqual(['user_text', 'speech_started', 'speech_stopped', 'user_audio']);
    expect(actions[0]).toEqual({ kind: 'user_text', text: '12', reason: 'speech', respond: false });
  });

  it('flushes DTMF on # and after 2.5 s idle through tick, answering when no response runs', async () => {
    const t = await session(vad);
    const pound = t.dtmf('7#', T0);
    if (!Array.isArray(pound)) throw new Error(pound.message);
    expect(pound.at(-1)).toEqual({ kind: 'user_text', text: '7#', reason: 'pound', respond: true });
    t.dtmf('9', T0 + 1000);
    t.responseStarted('resp_1');
    expect(t.deadline()).toBe(T0 + 3500);
    expect(t.tick(T0 + 3499)).toEqual([]);
    // A response is running: the digits go in, the session answers after it.
    expect(t.tick(T0 + 3500)).toEqual([{ kind: 'user_text', text: '9', reason: 'idle', respond: false }]);
    expect(t.dtmf('x', T0)).toMatchObject({ code: 'invalid_dtmf_digit' });
  });

  it('fires the idle timeout on silence after the model finished playing, commits a silent turn and checks in', async () => {
    const t = await session({ ...vad, idle_timeout_ms: 3000 });
    t.responseStarted('resp_1');
    t.audioSent('item_model', 1500);
    // Done sending at T0 + 200, it plays until T0 + 1500.
    t.responseDone('resp_1', T0 + 200, T0 + 1500);
    expect(t.deadline()).toBe(T0 + 4500);
    const { actions } = play(t, silence(5000, rate), T0 + 200);
    expect(names(actions)).toEqual(['timeout_triggered', 'check_in']);
    const [fired, checkIn] = actions;
    if (fired.kind !== 'send' || checkIn.kind !== 'check_in') throw new Error('shape');
    expect(fired.fields).toEqual({ audio_start_ms: 1300, audio_end_ms: 4300, item_id: 'item_1' });
    expect(checkIn).toMatchObject({ text: CHECK_INS[0], committed: { itemId: 'item_1', audioEndMs: 4300 } });
    // The silent turn holds at most the prefix padding kept.
    expect(checkIn.committed.audio.length).toBeLessThanOrEqual((rate * (vad.prefix_padding_ms + 100)) / 1000);
  });

  it('ignores the late done of a response a newer one replaced', async () => {
    const t = await session({ ...vad, idle_timeout_ms: 1000 });
    t.responseStarted('resp_1');
    t.responseStarted('resp_2');
    t.responseDone('resp_1', T0 + 100);
    expect(t.responses.responseId).toBe('resp_2');
    expect(t.deadline()).toBeNull();
    t.responseDone('resp_2', T0 + 200);
    expect(t.responses.inProgress).toBe(false);
    expect(t.deadline()).toBe(T0 + 1200);
  });

  it('does not time out while the caller speaks or a response runs', async () => {
    const t = await session({ ...vad, idle_timeout_ms: 1000 });
    const { actions } = play(t, concat(silence(600, rate), speech), T0);
    // The speech started before the timeout and lasts longer than it: no check-in.
    expect(names(actions)).toEqual(['speech_started']);
    t.responseStarted('resp_1');
    expect(t.deadline()).toBeNull();
    expect(t.tick(T0 + 60_000)).toEqual([]);
  });

  it('in manual mode detects nothing and commits on request, without answering', async () => {
    const t = await session(null);
    t.responseStarted('resp_1');
    const { actions } = play(t, concat(silence(500, rate), speech, silence(700, rate)), T0);
    expect(actions).toEqual([]);
    expect(t.responses.inProgress).toBe(true);
    const c = t.commit(T0 + 5000);
    if (!Array.isArray(c)) throw new Error(c.message);
    expect(names(c)).toEqual(['user_audio']);
    expect(c[0]).toMatchObject({ respond: false, committed: { audioStartMs: 0 } });
    expect(t.commit(T0 + 5000)).toMatchObject({ code: 'input_audio_buffer_commit_empty' });
  });

  it('honours create_response: false and interrupt_response: false', async () => {
    const t = await session({ ...vad, create_response: false, interrupt_response: false });
    t.responseStarted('resp_1');
    const { actions } = play(t, concat(silence(500, rate), speech, silence(700, rate)), T0);
    expect(names(actions)).toEqual(['speech_started', 'speech_stopped', 'user_audio']);
    expect(actions[2]).toMatchObject({ respond: false });
    // Switched to manual by session.update: speech is no longer detected.
    t.configure(null);
    expect(play(t, concat(speech, silence(700, rate)), T0 + 10_000).actions).toEqual([]);
  });
});
