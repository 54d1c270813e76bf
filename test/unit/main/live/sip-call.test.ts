/**
 * The `sip-call` kind in a live registry, with its call control and answerer as test doubles:
 * ringing listed by `live.changed`, Answer refused clearly without a console and taken with one,
 * Decline = hangup, transfer only once answered (a refused target keeps the call), the ring
 * running out as 'missed'.
 */
import { describe, expect, it } from 'vitest';
import type { LiveAttachChunk, LiveSessionSummary } from '../../../../shared/contract/live';
import { WorkbenchFailure } from '../../../../shared/contract/errors';
import { SecretScrubber } from '../../../../main/api/secret-scrubber';
import type { LiveKind } from '../../../../main/live/kind';
import { createLiveRegistry } from '../../../../main/live/registry';
import { CONSOLE_MISSING, sipCallLiveKind, type AnsweringSink, type CallAnswerer } from '../../../../main/live/sip-call';
import type { SipCallSnapshot } from '../../../../shared/sip-call';

function setup(opts: { answerer?: CallAnswerer | null; ringMs?: number; referFails?: string } = {}) {
  const sent: string[] = [];
  const changes: LiveSessionSummary[] = [];
  const kind = sipCallLiveKind({
    calls: {
      hangup: async (connectionId, callId) => void sent.push(`hangup ${callId} on ${connectionId}`),
      refer: async (_c, callId, target) => {
        if (opts.referFails) throw new WorkbenchFailure({ code: 'api_error', status: 400, message: opts.referFails });
        sent.push(`refer ${callId} ${target}`);
      },
    },
    answerer: () => opts.answerer ?? null,
    recordings: null,
    connection: (id) => ({ id, name: 'Sandbox', isSandbox: true, baseUrl: 'http://127.0.0.1:1', scrubber: SecretScrubber.NONE }),
    ringMs: opts.ringMs,
  });
  const registry = createLiveRegistry({ kinds: [kind as unknown as LiveKind], onChange: (s) => changes.push(s) });
  return { registry, sent, changes };
}

/** The registry ends a session after the kind's `end()`, asynchronously: wait for the summary. */
async function endOf(call: { ended: () => LiveSessionSummary | null }): Promise<LiveSessionSummary> {
  while (!call.ended()) await new Promise((res) => setTimeout(res, 2));
  return call.ended()!;
}

const input = { callId: 'call_1', from: '+14155550100', to: '+18005550199', connectionId: 'sandbox', webhookId: 'msg_1', receivedAt: 1000, event: { type: 'realtime.call.incoming' } };

async function started(r: ReturnType<typeof setup>) {
  const id = await r.registry.start('sip-call', input, { origin: 'main' });
  const chunks: LiveAttachChunk[] = [];
  let ended: LiveSessionSummary | null = null;
  const att = await r.registry.attach(id, { deliver: (c) => chunks.push(c), ended: (s) => (ended = s) });
  const state = () => {
    const snap = att.snapshot();
    return snap.type === 'snapshot' ? (snap.snapshot as SipCallSnapshot) : null;
  };
  return { id, att, chunks, state, ended: () => ended };
}

describe('the sip-call live kind', () => {
  it('rings (live.changed lists it), and Answer without a console says so and leaves it ringing', async () => {
    const r = setup();
    const call = await started(r);
    expect(r.changes.at(-1)).toMatchObject({ kind: 'sip-call', origin: 'main', state: 'ringing' });
    await expect(call.att.control({ type: 'answer' })).rejects.toMatchObject({ error: { message: CONSOLE_MISSING } });
    expect(call.state()).toMatchObject({ state: 'ringing', problem: CONSOLE_MISSING });
    expect(r.sent).toEqual([]);
  });

  it('declines with a hangup of the ringing call, and ends', async () => {
    const r = setup();
    const call = await started(r);
    await call.att.control({ type: 'decline' });
    expect(r.sent).toEqual(['hangup call_1 on sandbox']);
    expect(await endOf(call)).toMatchObject({ status: 'ended', state: 'declined' });
  });

  it('answers through the console, then transfers (a refused target keeps the call), or hangs up', async () => {
    const asked: string[] = [];
    const answerer: CallAnswerer = { answer: async ({ callId }) => (asked.push(callId), { liveSessionId: 'live_rt_1' }) };
    const r = setup({ answerer });
    const call = await started(r);
    await expect(call.att.control({ type: 'refer', target: 'tel:+14155550123' })).rejects.toBeInstanceOf(WorkbenchFailure);
    await call.att.control({ type: 'answer' });
    expect(asked).toEqual(['call_1']);
    expect(call.state()).toMatchObject({ state: 'answered', mediaSessionId: 'live_rt_1' });
    expect(r.changes.at(-1)).toMatchObject({ state: 'answered' });
    await expect(call.att.control({ type: 'decline' })).rejects.toMatchObject({ error: { message: expect.stringMatching(/hang it up instead/) } });
    await call.att.control({ type: 'refer', target: 'tel:+14155550123' });
    expect(r.sent).toEqual(['refer call_1 tel:+14155550123']);
    expect(await endOf(call)).toMatchObject({ state: 'transferred' });

    const refused = setup({ answerer, referFails: 'target_uri "tel:4155550123" is not a valid refer target' });
    const other = await started(refused);
    await other.att.control({ type: 'answer' });
    await expect(other.att.control({ type: 'refer', target: 'tel:4155550123' })).rejects.toMatchObject({ error: { message: expect.stringMatching(/not a valid refer target/) } });
    expect(other.state()).toMatchObject({ state: 'answered', problem: expect.stringMatching(/not a valid refer target/) });
    await other.att.control({ type: 'hangup' });
    expect(refused.sent).toEqual(['hangup call_1 on sandbox']);
    expect(await endOf(other)).toMatchObject({ state: 'ended' });
  });

  it('counts a call that rings out as missed', async () => {
    const r = setup({ ringMs: 20 });
    const call = await started(r);
    expect(await endOf(call)).toMatchObject({ state: 'missed' });
    expect(call.chunks.flatMap((c) => (c.type === 'event' ? [c.event] : []))).toEqual([{ type: 'ended', at: expect.any(Number), missed: true }]);
  });

  describe('following the answering session', () => {
    /** An answerer whose realtime session the test drives: its events and its end. */
    function followed() {
      const sinks: AnsweringSink[] = [];
      let detached = 0;
      const answerer: CallAnswerer = {
        answer: async () => ({ liveSessionId: 'live_rt_1' }),
        follow: async (id, sink) => (expect(id).toBe('live_rt_1'), sinks.push(sink), () => void detached++),
      };
      const wire = (digit: string, receivedAt: number) => ({ type: 'wire', direction: 'in', t: 0, eventType: 'input_audio_buffer.dtmf_event_received', data: { type: 'input_audio_buffer.dtmf_event_received', event: digit, received_at: receivedAt } });
      return { answerer, sinks, wire, detached: () => detached };
    }

    it('keeps the keys the caller pressed, and ends with the reason when the caller hangs up', async () => {
      const f = followed();
      const r = setup({ answerer: f.answerer });
      const call = await started(r);
      await call.att.control({ type: 'answer' });
      expect(f.sinks).toHaveLength(1);
      const [sink] = f.sinks;
      sink.event(f.wire('1', 100));
      sink.event({ type: 'wire', direction: 'out', t: 0, eventType: 'input_audio_buffer.dtmf_event_received', data: { event: '9' } });
      sink.event({ type: 'transcript', itemId: 'i', role: 'user', text: '2', mode: 'delta', final: false, source: 'audio' });
      sink.event(f.wire('2', 101));
      sink.event(f.wire('#', 102));
      expect(call.state()?.digits).toEqual([{ digit: '1', at: 100_000 }, { digit: '2', at: 101_000 }, { digit: '#', at: 102_000 }]);

      sink.event({ type: 'status', status: 'ended', message: 'The call was ended by the other side: The call was transferred to sip:desk@example.com.' });
      sink.ended({ endReason: 'ended', error: null });
      expect(await endOf(call)).toMatchObject({ status: 'ended', endReason: 'ended', state: 'ended' });
      expect(call.chunks.flatMap((c) => (c.type === 'event' ? [c.event] : [])).at(-1)).toEqual({ type: 'ended', at: expect.any(Number), missed: false, reason: 'The call was ended by the other side: The call was transferred to sip:desk@example.com.' });
      // The far side hung up: nothing to hang up at the service, and the follower let go.
      expect(r.sent).toEqual([]);
      expect(f.detached()).toBe(1);
    });

    it('takes the keys of a snapshot once: those before the follow attached, none twice after a fresh snapshot', async () => {
      const f = followed();
      const r = setup({ answerer: f.answerer });
      const call = await started(r);
      await call.att.control({ type: 'answer' });
      const [sink] = f.sinks;
      sink.keys!([{ digit: '5', at: 90_000 }]);
      sink.event(f.wire('6', 91));
      // A fresh snapshot (the follower fell behind) lists every key so far, the new one last.
      sink.keys!([{ digit: '5', at: 90_000 }, { digit: '6', at: 91_000 }, { digit: '7', at: 92_000 }]);
      expect(call.state()?.digits.map((d) => d.digit).join('')).toBe('567');
    });

    it('ends failed when the answering session fails, and hangs up at the service when the console ended it', async () => {
      const f = followed();
      const failedCall = setup({ answerer: f.answerer });
      const call = await started(failedCall);
      await call.att.control({ type: 'answer' });
      f.sinks[0].ended({ endReason: 'failed', error: { code: 'network', message: 'The media process stopped.' } });
      expect(await endOf(call)).toMatchObject({ status: 'ended', endReason: 'failed', error: { message: expect.stringMatching(/connection failed: The media process stopped/) } });
      expect(failedCall.sent).toEqual([]);

      const consoleEnded = setup({ answerer: f.answerer });
      const other = await started(consoleEnded);
      await other.att.control({ type: 'answer' });
      f.sinks[1].ended({ endReason: 'stopped', error: null });
      expect(await endOf(other)).toMatchObject({ endReason: 'ended' });
      expect(other.chunks.flatMap((c) => (c.type === 'event' ? [c.event] : [])).at(-1)).toMatchObject({ type: 'ended', reason: 'The call console was closed, which ended the call.' });
      expect(consoleEnded.sent).toEqual(['hangup call_1 on sandbox']);
    });

    it("says a dropped connection on the answered call (it stays answered), and clears it once the console reconnects", async () => {
      const f = followed();
      const r = setup({ answerer: f.answerer });
      const call = await started(r);
      await call.att.control({ type: 'answer' });
      const [sink] = f.sinks;
      sink.event({ type: 'connected', sessionId: 's1', model: null, voice: null, connectedAt: 1, attempt: 1, clientSecretExpiresAt: null });
      expect(call.state()?.problem).toBeNull();
      sink.event({ type: 'dropped', code: 'network', message: 'socket closed', t: 500 });
      expect(call.state()).toMatchObject({ state: 'answered', problem: expect.stringMatching(/^The call's connection dropped\. Reconnect from the call console/) });
      sink.event({ type: 'connected', sessionId: 's1', model: null, voice: null, connectedAt: 2, attempt: 2, clientSecretExpiresAt: null });
      expect(call.state()).toMatchObject({ state: 'answered', problem: null });
      expect(r.sent).toEqual([]);
    });

    it('ignores the answering session once the call was hung up here', async () => {
      const f = followed();
      const r = setup({ answerer: f.answerer });
      const call = await started(r);
      await call.att.control({ type: 'answer' });
      await call.att.control({ type: 'hangup' });
      f.sinks[0].ended({ endReason: 'ended', error: null });
      await endOf(call);
      const ends = call.chunks.flatMap((c) => (c.type === 'event' && (c.event as { type: string }).type === 'ended' ? [c.event] : []));
      expect(ends).toEqual([{ type: 'ended', at: expect.any(Number), missed: false, reason: 'Hung up here.' }]);
      expect(r.sent).toEqual(['hangup call_1 on sandbox']);
    });
  });
});
