/**
 * Bad input and failures on a realtime call (issue 16), against the embedded sandbox with a real
 * media process: each explained to the console (the start's refusal or the snapshot's lastError)
 * and in History (the run's error or an error mark), the recording and log kept. Values only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionRecord } from '../../../shared/contract/history';
import type { RunRecord } from '../../../shared/contract/runs';
import { CTX, startRealtimeHarness, type RealtimeHarness } from './harness';
import { attachCall, pollState } from './realtime-harness';

let env: RealtimeHarness;

beforeAll(async () => {
  env = await startRealtimeHarness();
}, 60_000);
afterAll(() => env?.close());

const WEATHER = { name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

describe('realtime call failures (sandbox)', () => {
  it('a wrong key: the start is refused with the service\'s reason, and History keeps the failed run with it', async () => {
    const profileId = await env.profile('Wrong key', { apiKey: 'sk-wrong-key-0123456789abcdef' });
    await expect(env.startCall({ connectionId: profileId })).rejects.toThrow(/API key/i);
    const page = await env.app.handlers.history.search({ endpoint: 'realtime.call', status: 'error', limit: 50 }, CTX);
    const failed = page.items.find((r) => r.connectionId === profileId);
    expect(failed).toBeDefined();
    const run = (await env.app.handlers.history.get({ id: failed!.id }, CTX)) as RunRecord;
    expect(run.error?.message).toMatch(/API key/i);
    expect(JSON.stringify(run)).not.toContain('sk-wrong-key-0123456789abcdef');
    const session = (await env.app.handlers.history.session({ id: failed!.id }, CTX)) as SessionRecord;
    expect(session.state).toBe('aborted');
  }, 60_000);

  it('a tool that throws (auto-responder error): said in the snapshot and marked in History; the model answers with the error and the call goes on', async () => {
    const id = await env.startCall({ tools: [WEATHER], autoReplies: { get_weather: { output: '', error: 'weather service unreachable' } } });
    const win = await attachCall(env.app, id);
    await win.until(() => win.state().status === 'live', 'connected');
    await win.attachment.control({ type: 'text', text: 'Please call get_weather for Paris.' });
    const done = await pollState(win.attachment.snapshot, (s) => s.usage.responses >= 2 && s.lastError !== null, 'the error said and the answer after it');
    expect(done.lastError).toMatchObject({ code: 'tool_error' });
    expect(done.lastError!.message).toMatch(/get_weather failed \(auto-responder\): weather service unreachable/);
    expect(done.status).toBe('live');
    expect(done.pendingToolCalls).toEqual([]);
    const output = win.events().find((e) => e.type === 'wire' && e.direction === 'out' && e.eventType === 'conversation.item.create' && (e.data as { item?: { type?: string } }).item?.type === 'function_call_output');
    expect(output && output.type === 'wire' ? (output.data as { item: { output: string } }).item.output : null).toBe('{"error":"weather service unreachable"}');
    await env.app.live.stop(id);
    const run = (await env.app.handlers.history.get({ id: done.runId }, CTX)) as RunRecord;
    expect(run.status).toBe('completed');
    const session = (await env.app.handlers.history.session({ id: done.runId }, CTX)) as SessionRecord;
    expect(session.marks.filter((m) => m.type === 'error').map((m) => m.data)).toEqual([expect.objectContaining({ code: 'tool_error', tool: 'get_weather' })]);
    expect(session.tracks.find((t) => t.name === 'model')?.state).toBe('closed');
  }, 90_000);

  it('the socket closing mid-turn (while the answer streams): the drop is said at once, the partial answer and the recording up to then are kept in History', async () => {
    const proxy = await env.proxy('Dropping proxy');
    try {
      const id = await env.startCall({ connectionId: proxy.profileId });
      const win = await attachCall(env.app, id);
      await win.until(() => win.state().status === 'live', 'connected');
      await win.attachment.control({ type: 'text', text: 'Say This answer is long enough to be cut off in the middle of a sentence by the network going away.' });
      // Mid-turn: the answer has begun streaming and is not done.
      await win.until(() => win.state().transcript.some((e) => e.role === 'assistant' && e.text.length > 0), 'the answer streaming');
      expect(win.state().usage.responses).toBe(0); // not done yet: the drop comes mid-turn
      proxy.drop();
      await win.until(() => win.state().status === 'dropped', 'the drop');
      const state = win.state();
      expect(state.lastError?.code).toBe('network');
      expect(state.usage.responses).toBe(0); // the turn never finished
      expect(state.transcript[0]).toMatchObject({ role: 'user', source: 'text' });
      await env.app.live.stop(id);
      const run = (await env.app.handlers.history.get({ id: state.runId }, CTX)) as RunRecord;
      expect(run.status).toBe('error');
      expect(run.error?.message).toMatch(/^The connection dropped: .* The recording up to then is kept\.$/);
      expect(run.outputPreview).toMatch(/^User: Say This answer is long enough/);
      // The answer as far as it came is kept with the transcript.
      const kept = (run.output as { transcript: Array<{ role: string; text: string }> }).transcript;
      expect(kept.find((e) => e.role === 'assistant')?.text ?? '').toMatch(/^This answer/);
      const session = (await env.app.handlers.history.session({ id: state.runId }, CTX)) as SessionRecord;
      expect(session.state).toBe('aborted');
      expect(session.marks.some((m) => m.type === 'error')).toBe(true);
      expect(session.tracks.find((t) => t.name === 'model')?.state).toBe('closed');
      expect(session.timelineTotal).toBeGreaterThan(0);
    } finally {
      proxy.close();
    }
  }, 90_000);
});
