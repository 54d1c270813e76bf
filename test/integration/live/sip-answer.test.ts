/**
 * A simulated SIP call answered for real: a whole app with its media process and embedded sandbox;
 * a number registered at the loopback receiver, a call placed through the sandbox's control API
 * rings as a `sip-call` session, Answer starts the realtime call kind joined to it (`call_id`, the
 * API key, no microphone or playback of ours) and the console's session goes live with the
 * caller's G.711 line; Hang up ends the SIP call and the service closes the realtime socket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../../main/app';
import { startLiveApp } from './harness';
import { attachCall } from './realtime-harness';
import type { RunRecord } from '../../../shared/contract/runs';
import type { SipCallSnapshot } from '../../../shared/sip-call';

const NUMBER = '+18005550195';
let live: Awaited<ReturnType<typeof startLiveApp>>;
let app: App;

beforeAll(async () => {
  live = await startLiveApp();
  app = live.app;
}, 60_000);
afterAll(() => live?.close());

async function until<T>(look: () => T | undefined | null | false, what: string): Promise<T> {
  for (let i = 0; i < 3000; i++) {
    const v = look();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`never saw ${what}: ${JSON.stringify(app.live.list())}`);
}

describe('answering a SIP call with the realtime console', { timeout: 120_000 }, () => {
  it('rings, is answered by a realtime session joined with call_id, and hangs up', async () => {
    await app.handlers.sip.register({ origin: 'byo_trunk', name: 'Desk', phoneNumber: NUMBER, allowedAddresses: ['127.0.0.0/8'] }, {} as never);
    const { sandbox } = await app.handlers.connections.list(undefined as never, {} as never);
    const placed = await fetch(`http://127.0.0.1:${sandbox.port}/sandbox/calls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ to: NUMBER, from: '+14155550100', script: { say: 'Hello, I would like to check my order please.', hangup_after_ms: null } }),
    });
    const { call_id: callId } = (await placed.json()) as { call_id: string };

    const ringing = await until(() => app.live.list().find((s) => s.kind === 'sip-call' && s.state === 'ringing'), 'the call ringing');
    const { mediaSessionId } = await app.handlers.sip.answer({ callId }, {} as never);
    expect(mediaSessionId).toMatch(/\S/);
    expect(app.live.list().find((s) => s.id === ringing.id)?.state).toBe('answered');
    expect(app.live.list().find((s) => s.id === mediaSessionId)).toMatchObject({ kind: 'realtime', origin: 'main' });

    const console_ = await attachCall(app, mediaSessionId);
    await console_.until(() => console_.state().status === 'live', 'the realtime session live');
    // The sandbox joins the call once its turn detector is loaded, just after the session opens.
    const callState = async () => ((await (await fetch(`http://127.0.0.1:${sandbox.port}/sandbox/calls/${callId}`, { headers: { authorization: `Bearer ${sandbox.key}` } })).json()) as { state: string }).state;
    let state = await callState();
    for (let i = 0; i < 500 && state === 'ringing'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      state = await callState();
    }
    expect(state).toBe('joined');

    await app.handlers.sip.hangup({ callId }, {} as never);
    // An ended session leaves the registry's list.
    await until(() => !app.live.list().some((s) => s.id === ringing.id), 'the SIP call ended');
    await console_.until(() => console_.ended() || ['ended', 'failed', 'dropped'].includes(console_.state().status), 'the realtime session closed by the hangup');
  });

  it('keeps the keys the caller pressed, and ends when the caller hangs up (History says so)', async () => {
    const number = '+18005550196';
    await app.handlers.sip.register({ origin: 'byo_trunk', name: 'Desk 2', phoneNumber: number, allowedAddresses: ['127.0.0.0/8'] }, {} as never);
    const { sandbox } = await app.handlers.connections.list(undefined as never, {} as never);
    // A short script: two keys, then the caller hangs up half a second after the last one.
    const placed = await fetch(`http://127.0.0.1:${sandbox.port}/sandbox/calls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ to: number, from: '+14155550100', script: { say: 'Press one.', dtmf: [{ digit: '9', at_ms: 0 }, { digit: '4', at_ms: 200 }, { digit: '2', at_ms: 400 }], hangup_after_ms: 500 } }),
    });
    const { call_id: callId } = (await placed.json()) as { call_id: string };
    const ringing = await until(() => app.live.list().find((s) => s.kind === 'sip-call' && s.state === 'ringing'), 'the call ringing');
    const sipEvents: Array<{ type: string; reason?: string }> = [];
    const sipCall = await app.live.attach(ringing.id, { deliver: (c) => void (c.type === 'event' && sipEvents.push(c.event as { type: string })), ended: () => {} });
    const snapshot = () => { const c = sipCall.snapshot(); return c.type === 'snapshot' ? (c.snapshot as SipCallSnapshot) : null; };
    await app.handlers.sip.answer({ callId }, {} as never);

    await until(() => snapshot()?.digits.length === 3, 'the three keys');
    expect(snapshot()?.digits.map((d) => d.digit).join('')).toBe('942');
    // The caller hangs up: the SIP call ends too, with the reason, and leaves the list.
    await until(() => !app.live.list().some((s) => s.id === ringing.id), 'the SIP call ended by the caller');
    const run = (await app.handlers.history.get({ id: `run_sip_${ringing.id}` }, {} as never)) as RunRecord;
    // The sandbox's own close reason, passed through the realtime session to the call and History.
    expect(run.outputPreview).toBe('Answered, then ended: The call was ended by the other side: The caller hung up.');
    expect(sipEvents.filter((e) => e.type === 'ended')).toEqual([expect.objectContaining({ reason: 'The call was ended by the other side: The caller hung up.' })]);
  });

  it('presses keys as the sandbox caller (they come back as the call’s digits), and refuses on a real service', async () => {
    const number = '+18005550197';
    await app.handlers.sip.register({ origin: 'byo_trunk', name: 'Desk 3', phoneNumber: number, allowedAddresses: ['127.0.0.0/8'] }, {} as never);
    const { sandbox } = await app.handlers.connections.list(undefined as never, {} as never);
    const placed = await fetch(`http://127.0.0.1:${sandbox.port}/sandbox/calls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ to: number, from: '+14155550100', script: { say: 'Hello.', hangup_after_ms: null } }),
    });
    const { call_id: callId } = (await placed.json()) as { call_id: string };
    const ringing = await until(() => app.live.list().find((s) => s.kind === 'sip-call' && s.state === 'ringing'), 'the call ringing');
    const calls = async () => (await app.handlers.sip.calls(undefined, {} as never)).find((c) => c.callId === callId);
    expect(await calls()).toMatchObject({ sandbox: true, digits: '' });
    await expect(app.handlers.sip.pressKeys({ callId, digits: '1x' }, {} as never)).rejects.toMatchObject({ error: { code: 'invalid_input', message: expect.stringMatching(/keys a keypad does not have \("x"\)/) } });
    const { mediaSessionId } = await app.handlers.sip.answer({ callId }, {} as never);
    const console_ = await attachCall(app, mediaSessionId);
    await console_.until(() => console_.state().status === 'live', 'the realtime session live');
    // The sandbox takes keys once the call is joined (just after the session opens).
    for (let i = 0; i < 500; i++) {
      const pressed = await Promise.resolve(app.handlers.sip.pressKeys({ callId, digits: '7' }, {} as never)).then(() => true, (e: unknown) => ((e as { error?: { status?: number } }).error?.status === 409 ? false : Promise.reject(e)));
      if (pressed) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await app.handlers.sip.pressKeys({ callId, digits: '3#' }, {} as never);
    for (let i = 0; i < 500 && (await calls())?.digits !== '73#'; i++) await new Promise((r) => setTimeout(r, 20));
    expect((await calls())?.digits).toBe('73#');
    expect(app.live.list().find((s) => s.id === ringing.id)?.state).toBe('answered');

    // The same call seen through a connection that is not the sandbox: no simulated caller to press for.
    const real = await app.handlers.connections.save({ name: 'A real service', baseUrl: 'https://api.example.com', apiKey: 'sk-real-0001' }, {} as never);
    await expect(app.handlers.sip.pressKeys({ callId: 'call_elsewhere', digits: '1', connectionId: real.id }, {} as never)).rejects.toMatchObject({ error: { code: 'invalid_input', message: expect.stringMatching(/only be pressed for the simulated caller of the built-in sandbox.*own phone/) } });
    await app.handlers.sip.hangup({ callId }, {} as never);
  });
});
