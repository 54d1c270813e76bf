import { describe, expect, it } from 'vitest';
import {
  RealtimeCallControlSchema,
  RealtimeCallInputSchema,
  applyRealtimeCallEvent,
  initialRealtimeCallSnapshot,
  realtimeResponseCost,
  realtimeTranscriptText,
  type RealtimeCallEvent,
} from '../../../../shared/realtime-call';

const input = RealtimeCallInputSchema.parse({ voice: 'eve', tools: [{ name: 'lookup', description: '', parameters: { type: 'object' } }], autoReplies: { lookup: { output: '{"ok":true}' } } });

describe('realtime call input', () => {
  it('fills the defaults: key auth, page microphone and output, 24 kHz PCM in the snapshot', () => {
    expect(input.auth).toBe('key');
    expect(input.microphone).toEqual({ kind: 'page' });
    const s = initialRealtimeCallSnapshot(input, 'run_1');
    expect(s.formats.input).toEqual({ type: 'audio/pcm', rate: 24_000 });
    expect(s.turnDetection).toBe('server_vad');
  });
  it('a SIP call defaults to µ-law 8 kHz and refuses a client secret', () => {
    expect(initialRealtimeCallSnapshot(RealtimeCallInputSchema.parse({ callId: 'rtc_1', microphone: { kind: 'none' }, output: { kind: 'none' } }), 'r').formats.output).toEqual({ type: 'audio/pcmu', rate: 8000 });
    const bad = RealtimeCallInputSchema.safeParse({ callId: 'rtc_1', auth: 'client-secret' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].message).toMatch(/API key only/);
  });
  it('refuses a PCM rate the service does not take, a threshold out of range, and unknown fields', () => {
    expect(RealtimeCallInputSchema.safeParse({ formats: { input: { type: 'audio/pcm', rate: 11025 } } }).success).toBe(false);
    expect(RealtimeCallInputSchema.safeParse({ turnDetection: { threshold: 0.95 } }).success).toBe(false);
    expect(RealtimeCallInputSchema.safeParse({ apiKey: 'x' }).success).toBe(false);
    expect(RealtimeCallInputSchema.parse({ turnDetection: null }).turnDetection).toBeNull();
  });
  it('control messages: commit answers by default; a played position is bounded', () => {
    expect(RealtimeCallControlSchema.parse({ type: 'commit' })).toEqual({ type: 'commit', respond: true });
    expect(RealtimeCallControlSchema.safeParse({ type: 'played', itemId: 'item_1', playedMs: -1 }).success).toBe(false);
    expect(RealtimeCallControlSchema.safeParse({ type: 'dial' }).success).toBe(false);
  });
});

describe('applyRealtimeCallEvent', () => {
  const run = (events: RealtimeCallEvent[]) => events.reduce(applyRealtimeCallEvent, initialRealtimeCallSnapshot(input, 'run_1'));

  it('keeps both transcripts: interim replaced in place, deltas appended, a truncated answer marked', () => {
    const s = run([
      { type: 'transcript', itemId: 'u1', role: 'user', text: 'hel', mode: 'replace', final: false, source: 'audio' },
      { type: 'transcript', itemId: 'u1', role: 'user', text: 'hello there', mode: 'replace', final: true, source: 'audio' },
      { type: 'transcript', itemId: 'a1', role: 'assistant', text: 'Hi ', mode: 'delta', final: false, source: 'audio' },
      { type: 'transcript', itemId: 'a1', role: 'assistant', text: 'you', mode: 'delta', final: false, source: 'audio' },
      { type: 'transcript-status', itemId: 'a1', status: 'truncated', truncatedAtMs: 420, text: 'Hi' },
    ]);
    expect(s.transcript.map((e) => [e.itemId, e.text, e.interim, e.status])).toEqual([
      ['u1', 'hello there', false, 'done'],
      ['a1', 'Hi', false, 'truncated'],
    ]);
    expect(s.transcript[1].truncatedAtMs).toBe(420);
    expect(realtimeTranscriptText(s.transcript)).toBe('User: hello there\nModel: Hi');
  });

  it('turns: latency from end of speech to first audio and first played, p50/p95 over turns, the first mark kept', () => {
    const s = run([
      { type: 'turn', turn: 1 },
      { type: 'mark', turn: 1, mark: 'speech_stopped', t: 1000 },
      { type: 'mark', turn: 1, mark: 'first_audio', t: 1300 },
      { type: 'mark', turn: 1, mark: 'first_audio', t: 1900 },
      { type: 'mark', turn: 1, mark: 'first_played', t: 1350 },
      { type: 'turn', turn: 2 },
      { type: 'mark', turn: 2, mark: 'speech_stopped', t: 5000 },
      { type: 'mark', turn: 2, mark: 'first_audio', t: 5500 },
      { type: 'mark', turn: 2, mark: 'barge_in', t: 6000 },
      { type: 'mark', turn: 2, mark: 'truncated', t: 6010, playedMs: 480 },
    ]);
    expect(s.turns.map((t) => t.latency)).toEqual([
      { firstAudioMs: 300, firstPlayedMs: 350 },
      { firstAudioMs: 500, firstPlayedMs: null },
    ]);
    expect(s.latency.firstAudio).toEqual({ count: 2, p50: 300, p95: 500 });
    expect(s.turns[1]).toMatchObject({ bargedIn: true, truncatedAtMs: 480 });
  });

  it('tool calls: pending until answered; who answers follows the saved replies', () => {
    const call = { callId: 'c1', name: 'weather', arguments: '{}', itemId: 'i', responseId: 'r', at: 10, answeredBy: 'window' as const };
    const s = run([{ type: 'tool-call', call }, { type: 'auto-replies', replies: { weather: { output: 'sunny' } } }]);
    expect(s.pendingToolCalls).toEqual([{ ...call, answeredBy: 'auto' }]);
    applyRealtimeCallEvent(s, { type: 'tool-answered', callId: 'c1', output: 'sunny', by: 'auto', error: null });
    expect(s.pendingToolCalls).toEqual([]);
  });

  it('a drop is said at once with its reason; usage sums; wire events are counted', () => {
    const s = run([
      { type: 'connected', sessionId: 'sess_1', model: 'svc-voice-latest', voice: 'eve', connectedAt: 1, attempt: 1, clientSecretExpiresAt: null },
      { type: 'usage', usage: { responses: 1, inputTokens: 10, outputTokens: 20, totalTokens: 30 } },
      { type: 'usage', usage: { responses: 1, inputTokens: 5, outputTokens: 5, totalTokens: 10 } },
      { type: 'wire', direction: 'in', t: 3, eventType: 'ping', data: {} },
      { type: 'dropped', code: 'network', message: 'The connection closed (1006).', t: 4 },
    ]);
    expect(s.status).toBe('dropped');
    expect(s.lastError).toEqual({ code: 'network', message: 'The connection closed (1006).', t: 4 });
    expect(s.usage).toMatchObject({ responses: 2, inputTokens: 15, outputTokens: 25, totalTokens: 40 });
    expect(s.wireEvents).toBe(1);
    expect(s.connection.sessionId).toBe('sess_1');
  });
});

describe('realtime call cost', () => {
  const prices = { prompt_text_token_price: 40_000, cached_prompt_text_token_price: 4_000, completion_text_token_price: 160_000 };
  const usage = { input_tokens: 100, output_tokens: 50, total_tokens: 150, input_token_details: { text_tokens: 60, audio_tokens: 40, cached_tokens: 30 }, output_token_details: { text_tokens: 10, audio_tokens: 40 } };

  it('prices tokens in (cached at the cached price) and out from the catalogue record', () => {
    expect(realtimeResponseCost(prices, usage)).toBe(70 * 40_000 + 30 * 4_000 + 50 * 160_000);
  });
  it("takes the service's own figure when the usage has one, and is unknown with no prices", () => {
    expect(realtimeResponseCost(prices, { ...usage, cost_in_usd_ticks: 1234 })).toBe(1234);
    expect(realtimeResponseCost(null, usage)).toBeNull();
  });
  it('sums the known costs per response; stays null while none had a price', () => {
    const s = initialRealtimeCallSnapshot(input, 'run_1');
    applyRealtimeCallEvent(s, { type: 'usage', usage: { responses: 1 }, costTicks: null });
    expect(s.costTicks).toBeNull();
    applyRealtimeCallEvent(s, { type: 'usage', usage: { responses: 1 }, costTicks: 500 });
    applyRealtimeCallEvent(s, { type: 'usage', usage: { responses: 1 }, costTicks: 250 });
    expect(s.costTicks).toBe(750);
    expect(s.usage.responses).toBe(3);
  });
});
