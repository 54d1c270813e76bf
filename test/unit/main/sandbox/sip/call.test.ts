/**
 * A simulated call driven directly (no socket): its timeline starts at the join, frames are
 * contiguous 20 ms µ-law with the script's audio then silence, keys arrive at their times (and
 * pressed keys when pressed), refer/hangup/caller hang-up/ring timeout/agent left end it once
 * with a reason, and nothing is sent after the end.
 */
import { describe, expect, it } from 'vitest';
import { SimulatedCall, type CallScript } from '../../../../../main/sandbox/sip/call';
import type { CallEnd, CallListener } from '../../../../../main/sandbox/sip/call-link';
import { manualTimer } from './manual-timer';

/** 100 ms of audio whose frame i is filled with byte i (so order and content can be checked). */
const audio = new Uint8Array(5 * 160).map((_, i) => Math.floor(i / 160));

function recorder() {
  const events: Array<{ kind: 'audio'; at: number; first: number; length: number } | { kind: 'dtmf'; at: number; digit: string } | { kind: 'end'; end: CallEnd }> = [];
  const listener: CallListener = {
    audio: (frame, at) => events.push({ kind: 'audio', at, first: frame[0], length: frame.length }),
    dtmf: (digit, at) => events.push({ kind: 'dtmf', at, digit }),
    ended: (end) => events.push({ kind: 'end', end }),
  };
  return { events, listener };
}

function makeCall(script: Partial<CallScript> = {}, extra: { ringTimeoutMs?: number; rejoinGraceMs?: number } = {}) {
  const timer = manualTimer();
  const ends: CallEnd[] = [];
  const call = new SimulatedCall({
    callId: 'call-1',
    team: 'team-a',
    from: '+14155550100',
    to: '+18005550199',
    script: { audio, dtmf: [], hangupAfterMs: 200, ...script },
    timer,
    ...extra,
    onEnd: (e) => ends.push(e),
  });
  return { call, timer, ends };
}

describe('a simulated call', () => {
  it('rings until joined; the timeline starts at the join, frames contiguous, audio then silence, then the caller hangs up', () => {
    const { call, timer, ends } = makeCall();
    timer.advance(5000);
    expect(call.state).toBe('ringing');
    const { events, listener } = recorder();
    const joined = call.join(listener);
    expect(joined.ok).toBe(true);
    timer.advance(299);
    const frames = events.filter((e) => e.kind === 'audio');
    // 299 ms: 14 whole frames have passed (0..13), the 15th is not complete.
    expect(frames.map((f) => f.at)).toEqual(Array.from({ length: 14 }, (_, i) => i * 20));
    expect(frames.map((f) => f.first)).toEqual([0, 1, 2, 3, 4, ...new Array(9).fill(0xff)]);
    expect(frames.every((f) => f.length === 160)).toBe(true);
    expect(call.state).toBe('joined');
    timer.advance(1);
    // The script's audio is 100 ms, the tail 200 ms: the caller hangs up at 300 ms, after frame 14.
    expect(call.state).toBe('ended');
    expect(events.filter((e) => e.kind === 'audio')).toHaveLength(15);
    expect(events.at(-1)).toEqual({ kind: 'end', end: { reason: 'caller_hung_up', message: 'The caller hung up.', atMs: 300 } });
    expect(ends).toHaveLength(1);
    timer.advance(1000);
    expect(events.filter((e) => e.kind === 'audio')).toHaveLength(15);
    expect(call.elapsedMs()).toBe(300);
    expect(timer.pending()).toBe(0);
  });

  it('sends the script\'s keys at their times, in order with the frames, and keys pressed now at the current time', () => {
    const { call, timer } = makeCall({ dtmf: [{ digit: '1', atMs: 30 }, { digit: '#', atMs: 40 }, { digit: '5', atMs: 250 }], hangupAfterMs: null });
    const { events, listener } = recorder();
    call.join(listener);
    timer.advance(61);
    const order = events.map((e) => (e.kind === 'audio' ? `a${e.at}` : e.kind === 'dtmf' ? `${e.digit}@${e.at}` : 'end'));
    expect(order).toEqual(['a0', '1@30', 'a20', '#@40', 'a40']);
    timer.advance(9);
    expect(call.press('9a*').ok).toBe(true);
    expect(events.slice(-3)).toEqual([{ kind: 'dtmf', at: 70, digit: '9' }, { kind: 'dtmf', at: 70, digit: 'A' }, { kind: 'dtmf', at: 70, digit: '*' }]);
    timer.advance(200);
    expect(events.filter((e) => e.kind === 'dtmf').map((e) => (e as { digit: string }).digit).join('')).toBe('1#9A*5');
    // No hang-up: the caller stays until the agent ends it.
    timer.advance(60_000);
    expect(call.state).toBe('joined');
    expect(call.sent.frames).toBe(Math.floor(60_270 / 20));
  });

  it('ends when the caller\'s last key is later than the audio: tail counted from that key', () => {
    const { call, timer } = makeCall({ dtmf: [{ digit: '2', atMs: 1000 }], hangupAfterMs: 500 });
    call.join(recorder().listener);
    timer.advance(1499);
    expect(call.state).toBe('joined');
    timer.advance(1);
    expect(call.outcome?.reason).toBe('caller_hung_up');
  });

  it('refer validates the target; a good one ends the call with it, once', () => {
    const { call, timer, ends } = makeCall({ hangupAfterMs: null });
    const { events, listener } = recorder();
    const joined = call.join(listener);
    if (!joined.ok) throw new Error(joined.message);
    timer.advance(100);
    const bad = joined.call.refer('tel:4155550123');
    expect(bad).toEqual({ ok: false, message: expect.stringMatching(/^target_uri "tel:4155550123": the number "4155550123" is not an E\.164/) });
    expect(call.state).toBe('joined');
    expect(joined.call.refer('sip:agent@example.com')).toEqual({ ok: true });
    expect(events.at(-1)).toEqual({ kind: 'end', end: { reason: 'referred', message: 'The call was transferred to sip:agent@example.com.', target: 'sip:agent@example.com', atMs: 100 } });
    expect(joined.call.hangup()).toEqual({ ok: false, message: expect.stringMatching(/^Call call-1 has ended \(referred\)/) });
    expect(call.press('1').ok).toBe(false);
    expect(ends).toHaveLength(1);
  });

  it('hangup ends it; a second join is refused while joined and after the end', () => {
    const { call, timer } = makeCall({ hangupAfterMs: null });
    const first = recorder();
    const joined = call.join(first.listener);
    if (!joined.ok) throw new Error(joined.message);
    expect(call.join(recorder().listener)).toEqual({ ok: false, message: 'Call call-1 is already joined by another socket; a call has one agent at a time.' });
    timer.advance(40);
    expect(joined.call.hangup()).toEqual({ ok: true });
    expect(first.events.at(-1)).toEqual({ kind: 'end', end: { reason: 'hangup', message: 'The agent hung up.', atMs: 40 } });
    expect(call.join(recorder().listener)).toEqual({ ok: false, message: 'Call call-1 has ended (hangup): The agent hung up.' });
  });

  it('pressing keys or ending before the join is refused; an unanswered call ends after its ring timeout', () => {
    const { call, timer, ends } = makeCall({}, { ringTimeoutMs: 3000 });
    expect(call.press('1')).toEqual({ ok: false, message: 'Call call-1 has not been answered yet: join it first (/v1/realtime?call_id=call-1).' });
    expect(call.hangup().ok).toBe(false);
    timer.advance(2999);
    expect(call.state).toBe('ringing');
    timer.advance(1);
    expect(ends).toEqual([{ reason: 'not_answered', message: 'Nobody answered: no socket joined call call-1 within 3 s of its ringing.', atMs: null }]);
  });

  it('a socket that leaves keeps the caller on the line: a new join resumes the timeline; no join in time ends it', () => {
    const { call, timer } = makeCall({ hangupAfterMs: null }, { rejoinGraceMs: 1000 });
    const a = recorder();
    const joinedA = call.join(a.listener);
    if (!joinedA.ok) throw new Error(joinedA.message);
    timer.advance(40);
    joinedA.call.leave();
    timer.advance(500);
    expect(joinedA.call.hangup()).toEqual({ ok: false, message: 'This socket left call call-1; join it again to control it.' });
    const b = recorder();
    const joinedB = call.join(b.listener);
    if (!joinedB.ok) throw new Error(joinedB.message);
    timer.advance(20);
    // The frames in between went to nobody; the new socket gets the timeline where it is.
    expect(b.events.map((e) => (e.kind === 'audio' ? e.at : -1))).toEqual([540]);
    expect(a.events).toHaveLength(2);
    joinedB.call.leave();
    timer.advance(1000);
    expect(call.outcome).toEqual({ reason: 'agent_left', message: "The agent's socket closed and nobody joined call call-1 again within 1 s.", atMs: 1560 });
    expect(b.events.at(-1)).toMatchObject({ kind: 'audio' });
  });
});
