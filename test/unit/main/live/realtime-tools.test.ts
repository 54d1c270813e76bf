/**
 * The auto-responder (main/live/realtime-tools.ts) when its answer cannot be sent: the socket
 * closed between the function call and the answer. No window is there to be refused, so the
 * failure is handed to `failed` (the live kind says it in the call's events and marks History).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToolResponder } from '../../../../main/live/realtime-tools';
import { WorkbenchFailure } from '../../../../shared/contract/errors';
import type { RealtimeCallEvent, RealtimePendingToolCall } from '../../../../shared/realtime-call';

const CALL: RealtimePendingToolCall = { callId: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', itemId: 'item_1', responseId: 'resp_1', at: 0, answeredBy: 'auto' };

function setup(send: (event: Record<string, unknown>) => Promise<void>, latencyMs?: number) {
  const events: RealtimeCallEvent[] = [];
  const failures: Array<{ callId: string; message: string }> = [];
  const logs: string[] = [];
  const tools = new ToolResponder({
    send,
    emit: (e) => events.push(e),
    replies: () => ({ get_weather: { output: '{"temp":21}', ...(latencyMs ? { latencyMs } : {}) } }),
    log: (line) => logs.push(line),
    failed: (call, message) => failures.push({ callId: call.callId, message }),
  });
  return { tools, events, failures, logs };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('ToolResponder', () => {
  it('an automatic answer the socket refuses is said (failed), with the tool and the reason, not only logged', async () => {
    const s = setup(async () => {
      throw new WorkbenchFailure({ code: 'network', message: 'The call is not connected: reconnect first.' });
    });
    s.tools.take([CALL]);
    await settle();
    expect(s.failures).toEqual([
      { callId: 'call_1', message: "The auto-responder's answer to get_weather could not be sent: The call is not connected: reconnect first. The model never got the tool's output; reconnect and ask again." },
    ]);
    expect(s.events.filter((e) => e.type === 'tool-answered')).toEqual([]); // never said to be answered
    expect(s.logs).toHaveLength(1);
  });

  it('an answer that goes out is not a failure', async () => {
    const sent: Array<Record<string, unknown>> = [];
    const s = setup(async (e) => void sent.push(e));
    s.tools.take([CALL]);
    await settle();
    expect(s.failures).toEqual([]);
    expect(sent.map((e) => e.type)).toEqual(['conversation.item.create', 'response.create']);
    expect(s.events).toEqual([{ type: 'tool-answered', callId: 'call_1', output: '{"temp":21}', by: 'auto', error: null }]);
  });

  describe('a delayed auto-reply (latency) when the socket drops', () => {
    afterEach(() => vi.useRealTimers());

    it('is said (failed) with the tool, the latency and the drop, and is never sent later', async () => {
      vi.useFakeTimers();
      const sent: Array<Record<string, unknown>> = [];
      const s = setup(async (e) => void sent.push(e), 1500);
      s.tools.take([CALL]);
      await vi.advanceTimersByTimeAsync(500);
      s.tools.dropped('The connection was reset.');
      expect(s.failures).toEqual([
        { callId: 'call_1', message: "The auto-responder's answer to get_weather was never sent: the connection dropped during its 1500 ms latency (The connection was reset.) The model never got the tool's output; reconnect and ask again." },
      ]);
      await vi.advanceTimersByTimeAsync(5_000);
      expect(sent).toEqual([]);
      expect(s.events).toEqual([]);
      expect(s.failures).toHaveLength(1);
    });

    it('says nothing for a reply already sent, nor when the call is stopped (clear)', async () => {
      vi.useFakeTimers();
      const s = setup(async () => undefined, 1500);
      s.tools.take([CALL]);
      await vi.advanceTimersByTimeAsync(2_000);
      s.tools.dropped('reset');
      expect(s.failures).toEqual([]);
      s.tools.take([{ ...CALL, callId: 'call_2' }]);
      s.tools.clear();
      await vi.advanceTimersByTimeAsync(2_000);
      expect(s.failures).toEqual([]);
      expect(s.events.map((e) => e.type === 'tool-answered' && e.callId)).toEqual(['call_1']);
    });
  });
});
