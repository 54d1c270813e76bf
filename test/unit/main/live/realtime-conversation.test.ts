import { describe, expect, it, vi } from 'vitest';
import { RealtimeConversation } from '../../../../main/live/realtime-conversation';
import { ToolResponder } from '../../../../main/live/realtime-tools';
import { applyRealtimeCallEvent, initialRealtimeCallSnapshot, RealtimeCallInputSchema, type RealtimeAutoReplies, type RealtimeCallEvent } from '../../../../shared/realtime-call';

function setup(replies: RealtimeAutoReplies = {}) {
  const state = initialRealtimeCallSnapshot(RealtimeCallInputSchema.parse({ autoReplies: replies }), 'run_1');
  const events: RealtimeCallEvent[] = [];
  const marks: Array<{ type: string; t: number; turn: number }> = [];
  const sent: Array<Record<string, unknown>> = [];
  let now = 0;
  const emit = (e: RealtimeCallEvent) => {
    events.push(e);
    applyRealtimeCallEvent(state, e);
  };
  const tools = new ToolResponder({ send: async (e) => void sent.push(e), emit, replies: () => state.autoReplies, log: () => undefined, failed: () => undefined });
  const conversation = new RealtimeConversation({ emit, record: (type, t, turn) => marks.push({ type, t, turn }), onToolCalls: (calls) => tools.take(calls), now: () => now, autoAnswers: (name) => Boolean(state.autoReplies[name]) });
  return { state, events, marks, sent, conversation, tools, at: (t: number) => (now = t) };
}

describe('RealtimeConversation', () => {
  it('ties a late mark to its own turn by the response it names, even after the next turn began', () => {
    const s = setup();
    s.conversation.speechStarted(100, 'u1');
    s.conversation.speechStopped(900, 'u1');
    s.conversation.server({ type: 'response.created', response: { id: 'r1' } });
    s.conversation.server({ type: 'response.output_item.added', response_id: 'r1', item: { id: 'a1', type: 'message' } });
    s.conversation.mark('first_audio', 1200, { itemId: 'a1', responseId: 'r1' });
    s.conversation.speechStarted(1500, 'u2'); // the user speaks again
    s.conversation.mark('first_played', 1300, { itemId: 'a1' }); // arrives late, for the first answer
    expect(s.state.turns.map((t) => [t.turn, t.userItemId, t.responseId, t.assistantItemId])).toEqual([
      [1, 'u1', 'r1', 'a1'],
      [2, 'u2', null, null],
    ]);
    expect(s.state.turns[0].latency).toEqual({ firstAudioMs: 300, firstPlayedMs: 400 });
    expect(s.marks.filter((m) => m.type === 'first_played')).toEqual([{ type: 'first_played', t: 1300, turn: 1 }]);
  });

  it('user transcription replaces in place; the answer transcript grows by deltas and a cancelled response marks it', () => {
    const s = setup();
    s.conversation.server({ type: 'conversation.item.input_audio_transcription.updated', item_id: 'u1', transcript: 'what is' });
    s.conversation.server({ type: 'conversation.item.input_audio_transcription.completed', item_id: 'u1', transcript: 'what is the time' });
    s.conversation.server({ type: 'response.output_audio_transcript.delta', item_id: 'a1', delta: 'It is ' });
    s.conversation.server({ type: 'response.output_audio_transcript.delta', item_id: 'a1', delta: 'noon' });
    s.conversation.server({ type: 'response.done', response: { id: 'r1', status: 'cancelled', output: [{ id: 'a1', type: 'message', status: 'incomplete' }], usage: { input_tokens: 3, output_tokens: 4, total_tokens: 7, output_token_details: { audio_tokens: 4 } } } });
    expect(s.state.transcript.map((e) => [e.role, e.text, e.interim, e.status])).toEqual([
      ['user', 'what is the time', false, 'done'],
      ['assistant', 'It is noon', false, 'cancelled'],
    ]);
    expect(s.state.usage).toMatchObject({ responses: 1, inputTokens: 3, outputTokens: 4, outputAudioTokens: 4 });
  });
});

describe('ToolResponder', () => {
  const call = (over: Record<string, unknown>) => ({ type: 'function_call', call_id: 'c1', name: 'lookup', arguments: '{}', id: 'f1', ...over });

  it('answers with the saved reply, its injected error as the output, and asks for the next response once every call of the response is answered', async () => {
    const s = setup({ lookup: { output: 'found', latencyMs: 0 }, broken: { output: '', error: 'database offline' } });
    s.conversation.server({ type: 'response.done', response: { id: 'r1', status: 'completed', output: [call({}), call({ call_id: 'c2', name: 'broken', id: 'f2' })] } });
    await vi.waitFor(() => expect(s.sent).toHaveLength(3));
    expect(s.sent).toEqual([
      { type: 'conversation.item.create', item: { type: 'function_call_output', call_id: 'c1', output: 'found' } },
      { type: 'conversation.item.create', item: { type: 'function_call_output', call_id: 'c2', output: '{"error":"database offline"}' } },
      { type: 'response.create' },
    ]);
    expect(s.state.pendingToolCalls).toEqual([]);
    expect(s.events.filter((e) => e.type === 'tool-answered').map((e) => (e.type === 'tool-answered' ? [e.by, e.error] : null))).toEqual([
      ['auto', null],
      ['auto', 'database offline'],
    ]);
  });

  it('a call with no saved reply waits for the window; a saved reply added later answers it; an unknown call id is refused', async () => {
    const s = setup();
    s.conversation.server({ type: 'response.done', response: { id: 'r1', status: 'completed', output: [call({}), call({ call_id: 'c2', id: 'f2' })] } });
    expect(s.state.pendingToolCalls.map((c) => [c.callId, c.answeredBy])).toEqual([
      ['c1', 'window'],
      ['c2', 'window'],
    ]);
    await s.tools.answer('c1', 'by hand', 'window', null);
    expect(s.sent.map((e) => e.type)).toEqual(['conversation.item.create']); // c2 still open: no response yet
    applyRealtimeCallEvent(s.state, { type: 'auto-replies', replies: { lookup: { output: 'saved' } } });
    s.tools.repliesChanged();
    await vi.waitFor(() => expect(s.sent.map((e) => e.type)).toEqual(['conversation.item.create', 'conversation.item.create', 'response.create']));
    await expect(s.tools.answer('c1', 'again', 'window', null)).rejects.toThrow(/No function call c1 is waiting/);
  });
});
