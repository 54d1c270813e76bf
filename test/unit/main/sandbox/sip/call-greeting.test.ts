/**
 * A caller who waits for the greeting (`script.wait_for_greeting`): silence until the model's first
 * utterance has played out to them and a short pause passed, then the script's audio, then the
 * hang-up counted from there; with no greeting, the script starts at GREETING_MAX_WAIT_MS. The
 * model's audio reaches the call through JoinedCall.modelAudio, on the hand-moved timer.
 */
import { describe, expect, it } from 'vitest';
import { GREETING_MAX_WAIT_MS, GREETING_PAUSE_MS, SimulatedCall } from '../../../../../main/sandbox/sip/call';
import type { CallEnd, CallListener } from '../../../../../main/sandbox/sip/call-link';
import { manualTimer } from './manual-timer';

/** 100 ms of caller audio whose frames are bytes 1..5 (silence is 0xff). */
const audio = new Uint8Array(5 * 160).map((_, i) => 1 + Math.floor(i / 160));

function setUp(waitForGreeting: boolean, hangupAfterMs: number | null = 200) {
  const timer = manualTimer();
  const call = new SimulatedCall({ callId: 'call-g', team: 't', from: '+14155550100', to: '+18005550199', script: { audio, dtmf: [{ digit: '7', atMs: 50 }], hangupAfterMs, waitForGreeting }, timer });
  const frames: Array<{ at: number; first: number }> = [];
  const keys: number[] = [];
  const ends: CallEnd[] = [];
  const listener: CallListener = { audio: (f, at) => frames.push({ at, first: f[0] }), dtmf: (_d, at) => keys.push(at), ended: (e) => ends.push(e) };
  const joined = call.join(listener);
  if (!joined.ok) throw new Error(joined.message);
  return { call, joined: joined.call, timer, frames, keys, ends };
}

const spoken = (frames: Array<{ at: number; first: number }>) => frames.filter((f) => f.first !== 0xff);

describe('a caller waiting for the greeting', () => {
  it('speaks once the greeting has played out and a pause passed; hangs up counting from there', () => {
    const { call, joined, timer, frames, keys, ends } = setUp(true);
    timer.advance(400);
    // The model greets 400 ms in: 600 ms of audio, sent ahead at once (it plays until 1000 ms).
    joined.modelAudio(new Uint8Array(4800).fill(0x10));
    timer.advance(800);
    expect(spoken(frames)).toEqual([]);
    expect(keys).toEqual([50]); // keys keep their times from the join
    timer.advance(400);
    const start = 1000 + GREETING_PAUSE_MS;
    expect(call.scriptStartedAtMs).toBe(start);
    expect(spoken(frames)).toEqual([1, 2, 3, 4, 5].map((first, i) => ({ at: start + i * 20, first })));
    timer.advance(1000);
    expect(ends.map((e) => [e.reason, e.atMs])).toEqual([['caller_hung_up', start + 100 + 200]]);
  });

  it('starts anyway when nobody greets within the wait', () => {
    const { call, timer, frames } = setUp(true);
    timer.advance(GREETING_MAX_WAIT_MS + 40);
    expect(call.scriptStartedAtMs).toBe(GREETING_MAX_WAIT_MS);
    expect(spoken(frames)[0]).toEqual({ at: GREETING_MAX_WAIT_MS, first: 1 });
  });

  it('does not wait when the script does not ask', () => {
    const { call, joined, timer, frames } = setUp(false);
    joined.modelAudio(new Uint8Array(4800).fill(0x10));
    timer.advance(40);
    expect(call.scriptStartedAtMs).toBe(0);
    expect(spoken(frames)[0]).toEqual({ at: 0, first: 1 });
  });
});

describe('the model interrupted on a call', () => {
  it('the caller stops hearing the answer at the barge-in', async () => {
    const { call, joined, timer } = setUp(false, null);
    timer.advance(100);
    joined.modelAudio(new Uint8Array(16000).fill(0x10)); // 2 s sent ahead at 100 ms
    timer.advance(500);
    joined.modelAudioInterrupted();
    timer.advance(3000);
    const heard = await call.ear.report(call.elapsedMs() ?? 0);
    expect(heard.ms).toBe(500);
    expect(heard.receivedMs).toBe(2000);
    expect(heard.utterances).toEqual([{ startMs: 100, endMs: 600 }]);
  });
});
