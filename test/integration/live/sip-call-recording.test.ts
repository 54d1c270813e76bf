/**
 * What History keeps of a SIP call answered here and transferred: a whole app with its media
 * process and embedded sandbox. The answering realtime session has no microphone of ours, so its
 * recording is the model's side alone (the caller's audio never reaches the client). Transferred
 * before the model has said anything, that track is empty: History must say so (durationMs 0)
 * and no 0:00 stereo mix may land in the gallery; transferred after the caller heard the model
 * answer their keys, the track holds that speech, as long as what the caller heard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../../main/app';
import type { SessionRecord } from '../../../shared/contract/history';
import type { RealtimeCallSnapshot } from '../../../shared/realtime-call';
import { startLiveApp } from './harness';
import { attachCall } from './realtime-harness';

const CTX = {} as never;
const TARGET = 'tel:+14155550123';
let live: Awaited<ReturnType<typeof startLiveApp>>;
let app: App;
let sandbox: { port: number; key: string };

beforeAll(async () => {
  live = await startLiveApp();
  app = live.app;
  ({ sandbox } = await app.handlers.connections.list(undefined as never, CTX));
}, 60_000);
afterAll(() => live?.close());

interface SandboxCall {
  state: string;
  ended: { reason: string } | null;
  caller: { heard: { ms: number; received_ms: number } };
}

const control = async (path: string, body?: unknown): Promise<Response> =>
  fetch(`http://127.0.0.1:${sandbox.port}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${sandbox.key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const sandboxCall = async (callId: string): Promise<SandboxCall> => (await (await control(`/sandbox/calls/${callId}`)).json()) as SandboxCall;

async function until<T>(look: () => Promise<T | undefined | null | false> | T | undefined | null | false, what: string): Promise<T> {
  for (let i = 0; i < 3000; i++) {
    const v = await look();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`never saw ${what}: ${JSON.stringify(app.live.list())}`);
}

/** Registers `number`, places a call to it with `script`, answers it here; the console's session live and the sandbox's call joined. */
async function answeredCall(number: string, script: Record<string, unknown>) {
  await app.handlers.sip.register({ origin: 'byo_trunk', name: `Desk ${number}`, phoneNumber: number, allowedAddresses: ['127.0.0.0/8'] }, CTX);
  const placed = await control('/sandbox/calls', { to: number, from: '+14155550100', script: { hangup_after_ms: null, ...script } });
  const { call_id: callId } = (await placed.json()) as { call_id: string };
  await until(() => app.live.list().find((s) => s.kind === 'sip-call' && s.state === 'ringing'), 'the call ringing');
  const { mediaSessionId } = await app.handlers.sip.answer({ callId }, CTX);
  const console_ = await attachCall(app, mediaSessionId);
  await console_.until(() => console_.state().status === 'live', 'the realtime session live');
  await until(async () => (await sandboxCall(callId)).state === 'joined', 'the call joined');
  return { callId, mediaSessionId, console_ };
}

/** Transfers the call and waits until its answering session has stopped (its recording closed). */
async function transfer(callId: string, mediaSessionId: string): Promise<void> {
  await app.handlers.sip.refer({ callId, target: TARGET }, CTX);
  await until(() => !app.live.list().some((s) => s.id === mediaSessionId), 'the answering session ended');
}

async function recordingOf(runId: string): Promise<{ session: SessionRecord; mixes: number }> {
  const session = (await app.handlers.history.session({ id: runId }, CTX)) as SessionRecord;
  const gallery = (await app.handlers.gallery.list({ kind: 'audio', limit: 50 }, CTX)) as { items: Array<{ runId: string | null }> };
  return { session, mixes: gallery.items.filter((i) => i.runId === runId).length };
}

describe('a transferred SIP call in History', { timeout: 120_000 }, () => {
  it('transferred before the model spoke: the model track is there, empty (0 ms), and no 0:00 stereo mix is kept', async () => {
    // A silent caller who presses no key: nothing for the model to answer.
    const { callId, mediaSessionId, console_ } = await answeredCall('+18005550181', {});
    const runId = (console_.state() as RealtimeCallSnapshot).runId;
    await transfer(callId, mediaSessionId);
    expect((await sandboxCall(callId)).caller.heard.received_ms).toBe(0);

    const { session, mixes } = await recordingOf(runId);
    expect(session.state).toBe('ended');
    // The only track (no microphone of ours on a phone call), closed and empty: History shows a note, not a player.
    expect(session.tracks.map((t) => ({ name: t.name, direction: t.direction, state: t.state, durationMs: t.durationMs }))).toEqual([{ name: 'model', direction: 'in', state: 'closed', durationMs: 0 }]);
    expect(mixes).toBe(0);
  });

  it('transferred once the caller heard the model answer the keys: the model track holds that speech, and the call has its mix', async () => {
    const { callId, mediaSessionId, console_ } = await answeredCall('+18005550182', {});
    const runId = (console_.state() as RealtimeCallSnapshot).runId;
    // '#' hands the keys to the model, which answers them.
    expect((await control(`/sandbox/calls/${callId}/dtmf`, { digits: '42#' })).status).toBe(200);
    const heard = await until(async () => {
      const ms = (await sandboxCall(callId)).caller.heard.ms;
      return ms > 1_500 ? ms : null;
    }, 'the caller hearing the answer');
    await transfer(callId, mediaSessionId);

    const { session, mixes } = await recordingOf(runId);
    const [model] = session.tracks;
    expect(session.tracks).toHaveLength(1);
    expect(model).toMatchObject({ name: 'model', direction: 'in', state: 'closed' });
    // Recorded as heard: at least what the caller had heard when the transfer was asked for.
    expect(model!.durationMs).toBeGreaterThanOrEqual(heard);
    expect(model!.media).not.toBeNull();
    expect(mixes).toBe(1);
  });
});
