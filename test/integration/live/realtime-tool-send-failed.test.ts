/**
 * main/live/realtime.ts's wiring of an auto-reply that cannot be sent (issue 16): the socket closes
 * just after the model's function call arrives, so the auto-responder's `function_call_output`
 * has nowhere to go. With no window to refuse it to, the call must say it (an error event with
 * code `tool_send_failed`) and History must keep it (an error mark naming the tool), besides the
 * drop itself. Against the embedded sandbox through a TCP proxy that cuts the connection right
 * after forwarding the first `response.done`. Also an auto-reply with a latency, still waiting
 * when that drop comes: cancelled, and said the same way after the drop. Values only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionRecord } from '../../../shared/contract/history';
import { CTX, startRealtimeHarness, type RealtimeHarness } from './harness';
import { attachCall } from './realtime-harness';

const WEATHER = { name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
let env: RealtimeHarness;

beforeAll(async () => {
  env = await startRealtimeHarness();
}, 60_000);
afterAll(() => env?.close());

/**
 * A proxy to the sandbox that, once the service's first `response.done` has gone through to the
 * client, destroys both sides: the client reads the function call, then finds the socket closed.
 */
const cuttingProxy = (name: string) => env.proxy(name, { cutAfter: '"response.done"' });

describe('an auto-reply the closed socket cannot carry (sandbox)', () => {
  it('is said as a tool_send_failed error in the call and marked in History, apart from the drop', async () => {
    const proxy = await cuttingProxy('Cutting proxy');
    try {
      const id = await env.startCall({ connectionId: proxy.profileId, tools: [WEATHER], autoReplies: { get_weather: { output: '{"temp_c":18}' } } });
      const win = await attachCall(env.app, id);
      await win.until(() => win.state().status === 'live', 'connected');
      await win.attachment.control({ type: 'text', text: 'Please call get_weather for Paris.' });
      await win.until(() => win.state().status === 'dropped', 'the drop after the function call');
      await win.until(() => win.events().some((e) => e.type === 'error' && e.code === 'tool_send_failed'), 'the failed auto-reply said', 20_000);
      expect(proxy.cuts()).toBe(1);

      const calls = win.events().filter((e) => e.type === 'tool-call');
      expect(calls.map((e) => e.type === 'tool-call' && e.call.name)).toEqual(['get_weather']);
      const failed = win.events().filter((e) => e.type === 'error' && e.code === 'tool_send_failed');
      expect(failed).toHaveLength(1);
      const message = failed[0]!.type === 'error' ? failed[0]!.message : '';
      expect(message).toMatch(/^The auto-responder's answer to get_weather could not be sent: .+ The model never got the tool's output; reconnect and ask again\.$/);
      // The answer never reached the model: no tool-answered event, nothing sent after the call.
      expect(win.events().some((e) => e.type === 'tool-answered')).toBe(false);
      expect(win.events().some((e) => e.type === 'wire' && e.direction === 'out' && e.eventType === 'conversation.item.create' && (e.data as { item?: { type?: string } }).item?.type === 'function_call_output')).toBe(false);
      const callId = calls[0]?.type === 'tool-call' ? calls[0].call.callId : null;
      const runId = win.state().runId;

      await env.app.live.stop(id);
      const session = (await env.app.handlers.history.session({ id: runId }, CTX)) as SessionRecord;
      const errors = session.marks.filter((m) => m.type === 'error').map((m) => m.data as Record<string, unknown>);
      const toolMarks = errors.filter((d) => d.code === 'tool_send_failed');
      expect(toolMarks).toEqual([expect.objectContaining({ tool: 'get_weather', callId, message })]);
      // The drop has its own mark: the failed answer is not folded into it.
      expect(errors.filter((d) => d.code !== 'tool_send_failed')).toHaveLength(1);
    } finally {
      proxy.close();
    }
  }, 90_000);

  it('a delayed auto-reply still waiting out its latency when the socket drops is said the same way, after the drop', async () => {
    const proxy = await cuttingProxy('Cutting proxy (latency)');
    try {
      // The drop comes right after the function call; the reply waits 60 s, so it is still waiting then.
      const id = await env.startCall({ connectionId: proxy.profileId, tools: [WEATHER], autoReplies: { get_weather: { output: '{"temp_c":18}', latencyMs: 60_000 } } });
      const win = await attachCall(env.app, id);
      await win.until(() => win.state().status === 'live', 'connected');
      await win.attachment.control({ type: 'text', text: 'Please call get_weather for Paris.' });
      await win.until(() => win.state().status === 'dropped', 'the drop after the function call');
      await win.until(() => win.events().some((e) => e.type === 'error' && e.code === 'tool_send_failed'), 'the cancelled auto-reply said', 20_000);
      expect(proxy.cuts()).toBe(1);

      const types = win.events().map((e) => (e.type === 'error' ? `error:${e.code}` : e.type));
      expect(types.indexOf('dropped')).toBeLessThan(types.indexOf('error:tool_send_failed'));
      const failed = win.events().filter((e) => e.type === 'error' && e.code === 'tool_send_failed');
      expect(failed).toHaveLength(1);
      const message = failed[0]!.type === 'error' ? failed[0]!.message : '';
      expect(message).toMatch(/^The auto-responder's answer to get_weather was never sent: the connection dropped during its 60000 ms latency \(.+\) The model never got the tool's output; reconnect and ask again\.$/);
      expect(win.events().some((e) => e.type === 'tool-answered')).toBe(false);
      const calls = win.events().filter((e) => e.type === 'tool-call');
      const callId = calls[0]?.type === 'tool-call' ? calls[0].call.callId : null;
      const runId = win.state().runId;

      await env.app.live.stop(id);
      const session = (await env.app.handlers.history.session({ id: runId }, CTX)) as SessionRecord;
      const errors = session.marks.filter((m) => m.type === 'error').map((m) => m.data as Record<string, unknown>);
      expect(errors.filter((d) => d.code === 'tool_send_failed')).toEqual([expect.objectContaining({ tool: 'get_weather', callId, message })]);
      expect(errors.filter((d) => d.code !== 'tool_send_failed')).toHaveLength(1);
    } finally {
      proxy.close();
    }
  }, 90_000);
});
