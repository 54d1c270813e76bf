/**
 * The `realtime` live kind against the embedded sandbox's /v1/realtime, with a real media process
 * (the socket runs there): text turns, the auto-responder's function-call loop with no window
 * attached, detach/reattach mid-call, a drop said at once and a reconnect seeded from the
 * transcript, and the recording in History. Counts, order and values only, never times.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionRecord } from '../../../shared/contract/history';
import type { RunRecord } from '../../../shared/contract/runs';
import { startLiveApp } from './harness';
import { attachCall, pollState } from './realtime-harness';

const CTX = { sessionId: 'test', signal: new AbortController().signal };
let env: Awaited<ReturnType<typeof startLiveApp>>;

beforeAll(async () => {
  env = await startLiveApp();
}, 60_000);
afterAll(() => env?.close());

const WEATHER = { name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

describe('realtime call live session (sandbox)', () => {
  it('answers a function call through the auto-responder with no window attached, then speaks the answer using it', async () => {
    const id = await env.app.live.start(
      'realtime',
      { microphone: { kind: 'none' }, output: { kind: 'none' }, tools: [WEATHER], autoReplies: { get_weather: { output: '{"temp":21,"unit":"C"}', latencyMs: 300 } } },
      { origin: 'window' },
    );
    const win = await attachCall(env.app, id);
    await win.until(() => win.state().status === 'live' && win.state().connection.sessionId !== null, 'connected');
    await win.attachment.control({ type: 'text', text: 'Please call get_weather for Paris.' });
    win.attachment.detach(); // the console closes: the call and its tools go on
    expect(env.app.live.summary(id)?.attachments).toBe(0);

    const done = await pollState(win.attachment.snapshot,  (s) => s.usage.responses >= 2 && s.transcript.some((e) => e.role === 'assistant' && !e.interim && /21/.test(e.text)), 'the answer using the tool output').catch((e) => { console.log(env.logs.slice(-40).join('\n')); throw e; });
    expect(env.app.live.summary(id)?.attachments).toBe(0);
    expect(done.pendingToolCalls).toEqual([]);
    expect(done.usage.responses).toBe(2); // the function call's response and the spoken answer
    expect(done.usage.outputTokens).toBeGreaterThan(0);
    expect(done.turns).toHaveLength(1);
    expect(done.transcript[0]).toMatchObject({ role: 'user', text: 'Please call get_weather for Paris.', source: 'text' });

    // A window attaching now starts from that state and sees the rest live.
    const again = await attachCall(env.app, id);
    expect(again.state().transcript).toEqual(done.transcript);
    await env.app.live.stop(id);
    await again.until(() => again.ended(), 'the end');
    expect(again.state().status).toBe('ended');

    // History: every message both ways, the tool's output among ours, the transcript as output.
    const run = (await env.app.handlers.history.get({ id: done.runId }, CTX)) as RunRecord;
    expect(run.status).toBe('completed');
    expect(run.outputPreview).toMatch(/^User: Please call get_weather for Paris\.\sModel: The get weather tool says: temp 21/);
    expect((run.output as { transcript: unknown[] }).transcript).toEqual(done.transcript);
    const session = (await env.app.handlers.history.session({ id: done.runId }, CTX)) as SessionRecord;
    expect(session.marks.filter((m) => m.type === 'response_done').length).toBe(done.usage.responses);
  }, 120_000);
});
