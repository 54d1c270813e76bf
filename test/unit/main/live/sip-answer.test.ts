/**
 * Answer through the realtime call kind: with a `realtime` kind registered (a stand-in that checks
 * its input with the real schema), Answer starts it joined to the call (`callId`, the API key, no
 * microphone or playback of its own) and the SIP call is answered with that session; without one,
 * Answer is refused and the call keeps ringing.
 */
import { describe, expect, it } from 'vitest';
import { RealtimeCallInputSchema, REALTIME_CALL_KIND, type RealtimeCallInput } from '../../../../shared/realtime-call/input';
import { applyRealtimeCallEvent, initialRealtimeCallSnapshot, type RealtimeCallEvent } from '../../../../shared/realtime-call/snapshot';
import type { SipCallSnapshot } from '../../../../shared/sip-call';
import { SecretScrubber } from '../../../../main/api/secret-scrubber';
import { defineLiveKind, type LiveKind } from '../../../../main/live/kind';
import { createLiveRegistry, type LiveRegistry } from '../../../../main/live/registry';
import { realtimeAnswerer } from '../../../../main/live/sip-answer';
import { CONSOLE_MISSING, sipCallLiveKind } from '../../../../main/live/sip-call';
import { z } from 'zod';

/** A key as the realtime kind emits it: the service's message on the socket, as a `wire` event. */
const keyEvent = (digit: string, receivedAt: number): RealtimeCallEvent => ({ type: 'wire', direction: 'in', t: 0, eventType: 'input_audio_buffer.dtmf_event_received', data: { type: 'input_audio_buffer.dtmf_event_received', event: digit, received_at: receivedAt } });

/**
 * `keysWhileStarting`: the stand-in's socket brings these keys while its start is still under
 * way (before anyone can attach), folded into its snapshot as the real kind does.
 */
function build(withRealtime: boolean, keysWhileStarting: string[] = []) {
  const joined: RealtimeCallInput[] = [];
  const live: { emit: ((e: RealtimeCallEvent) => void) | null } = { emit: null };
  const realtime = defineLiveKind({
    id: REALTIME_CALL_KIND,
    input: RealtimeCallInputSchema,
    control: z.never(),
    start: async (ctx) => {
      joined.push(ctx.input);
      const state = initialRealtimeCallSnapshot(ctx.input, 'run_1');
      live.emit = (event) => (applyRealtimeCallEvent(state, event), ctx.emit(event));
      keysWhileStarting.forEach((d, i) => live.emit!(keyEvent(d, 100 + i)));
      await new Promise((r) => setTimeout(r, 5));
      return { snapshot: () => structuredClone(state), control: () => undefined, stop: () => undefined };
    },
  });
  let registry: LiveRegistry | null = null;
  const kinds: LiveKind[] = [];
  const answerer = realtimeAnswerer({ registry: () => registry, available: () => kinds.some((k) => k.id === REALTIME_CALL_KIND) });
  kinds.push(
    sipCallLiveKind({
      calls: { hangup: async () => undefined, refer: async () => undefined },
      answerer,
      recordings: null,
      connection: (id) => ({ id, name: 'Sandbox', isSandbox: true, baseUrl: 'http://127.0.0.1:1', scrubber: SecretScrubber.NONE }),
    }) as unknown as LiveKind,
    ...(withRealtime ? [realtime as unknown as LiveKind] : []),
  );
  registry = createLiveRegistry({ kinds, onChange: () => undefined });
  return { registry, joined, live };
}

const input = { callId: 'call_9', from: '+14155550100', to: '+18005550199', connectionId: 'sandbox', webhookId: 'msg_9', receivedAt: 1, event: {} };

async function ringing(registry: LiveRegistry) {
  const id = await registry.start('sip-call', input, { origin: 'main' });
  const att = await registry.attach(id, { deliver: () => undefined, ended: () => undefined });
  const state = () => (att.snapshot() as { snapshot: SipCallSnapshot }).snapshot;
  return { att, state };
}

describe('answering a SIP call with the realtime call kind', () => {
  it('starts the realtime session joined to the call with the API key, and the call is answered with it', async () => {
    const { registry, joined } = build(true);
    const call = await ringing(registry);
    await call.att.control({ type: 'answer' });
    expect(joined).toEqual([expect.objectContaining({ callId: 'call_9', connectionId: 'sandbox', auth: 'key', microphone: { kind: 'none' }, output: { kind: 'none' } })]);
    const rt = registry.list().find((s) => s.kind === REALTIME_CALL_KIND);
    expect(rt).toMatchObject({ origin: 'main' });
    expect(call.state()).toMatchObject({ state: 'answered', mediaSessionId: rt!.id });
  });

  it('without the realtime kind, refuses Answer and keeps ringing', async () => {
    const { registry, joined } = build(false);
    const call = await ringing(registry);
    await expect(call.att.control({ type: 'answer' })).rejects.toMatchObject({ error: { message: CONSOLE_MISSING } });
    expect(joined).toEqual([]);
    expect(call.state().state).toBe('ringing');
  });

  it('keeps the keys the caller pressed before the SIP call followed the answering session, then the later ones, each once', async () => {
    const { registry, live } = build(true, ['1', '2']);
    const call = await ringing(registry);
    await call.att.control({ type: 'answer' });
    live.emit!(keyEvent('#', 105));
    expect(call.state().digits).toEqual([{ digit: '1', at: 100_000 }, { digit: '2', at: 101_000 }, { digit: '#', at: 105_000 }]);
  });
});
