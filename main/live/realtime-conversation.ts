/**
 * A realtime call's conversation as main follows it: the service's events (read from the media
 * session's captured frames, in order) and the media session's marks become the call's events
 * (shared/realtime-call: transcripts of both sides, turns with their latency marks, tool calls,
 * usage, errors), and each mark is also given to the recording. Knows nothing of sockets or
 * windows: `emit` and `record` are given.
 *
 * Turns: a turn starts with the user's speech (`speech_started`), a manual commit, or a typed
 * message; the user's item, the response and the answer's item are tied to it as they appear, so
 * a mark that names an item or a response lands on its own turn even when the next turn began.
 * The end of the user's input is `speech_stopped` as received (VAD), the commit, or the message
 * sent; first audio is the first answer delta received; first played is its first sample heard.
 */
import type { RealtimeCallEvent, RealtimePendingToolCall, RealtimeTurnMark, RealtimeUsageTotals } from '../../shared/realtime-call';
import type { SessionMarkType } from '../../shared/session-metrics';

interface Item {
  id?: string;
  type?: string;
  role?: string;
  status?: string;
  call_id?: string;
  name?: string;
  arguments?: string;
  content?: Array<{ type?: string; text?: string | null; transcript?: string | null }>;
}
type ServerMessage = { type: string; [key: string]: unknown };

export interface ConversationDeps {
  emit(event: RealtimeCallEvent): void;
  /** A recording mark at session time `t`. */
  record(type: SessionMarkType, t: number, turn: number, data?: Record<string, unknown>): void;
  /** A response finished with these function calls (the auto-responder takes them). */
  onToolCalls(calls: RealtimePendingToolCall[], responseId: string | null): void;
  now(): number;
  autoAnswers(name: string): boolean;
  /** One response's cost in USD ticks from its usage (null: no price known). */
  cost?(usage: Record<string, unknown>): number | null;
}

const RECORDED: Partial<Record<RealtimeTurnMark, SessionMarkType>> = {
  speech_started: 'speech_started',
  speech_stopped: 'speech_stopped',
  first_audio: 'first_audio',
  first_played: 'first_played',
  response_done: 'response_done',
  barge_in: 'barge_in',
  truncated: 'truncated',
};

export class RealtimeConversation {
  private turn = 0;
  /** Item and response ids → their turn. */
  private readonly turnOf = new Map<string, number>();
  /** The current turn already has its end of input (a new speech_started starts the next). */
  private inputEnded = true;

  constructor(private readonly deps: ConversationDeps) {}

  get currentTurn(): number {
    return this.turn;
  }

  /** A new turn (speech started, a commit, a typed message). */
  startTurn(userItemId: string | null = null): number {
    this.turn++;
    this.inputEnded = false;
    if (userItemId) this.turnOf.set(userItemId, this.turn);
    this.deps.emit({ type: 'turn', turn: this.turn, userItemId });
    return this.turn;
  }

  /** Marks the current turn's (or the named item's/response's) `mark` at session time `t`. */
  mark(mark: RealtimeTurnMark, t: number, ids: { itemId?: string | null; responseId?: string | null } = {}, data: Record<string, unknown> = {}): void {
    let turn = (ids.itemId && this.turnOf.get(ids.itemId)) || (ids.responseId && this.turnOf.get(ids.responseId)) || this.turn;
    if (turn === 0) turn = this.startTurn();
    if (mark === 'speech_stopped' || mark === 'speech_started') this.inputEnded = mark === 'speech_stopped';
    this.deps.emit({ type: 'mark', turn, mark, t, ...(typeof data.playedMs === 'number' ? { playedMs: data.playedMs } : {}) });
    const recorded = RECORDED[mark];
    if (recorded) this.deps.record(recorded, t, turn, { ...data, ...(ids.itemId ? { itemId: ids.itemId } : {}) });
  }

  /** The user's speech began (the media session's mark, with the service's item id). */
  speechStarted(t: number, itemId: string | null): void {
    if (this.inputEnded || this.turn === 0) this.startTurn(itemId);
    else if (itemId) this.tie(itemId, this.turn, 'userItemId');
    this.mark('speech_started', t, { itemId });
    this.deps.emit({ type: 'speaking', side: 'user', speaking: true });
  }

  /** The user's speech ended at `t` (where the service's `audio_end_ms` was captured, recorded with it). */
  speechStopped(t: number, itemId: string | null, audioEndMs: number | null = null): void {
    this.mark('speech_stopped', t, { itemId }, audioEndMs !== null ? { audioEndMs } : {});
    this.deps.emit({ type: 'speaking', side: 'user', speaking: false });
  }

  /** A typed message or a manual commit: a turn whose input ended now. */
  inputSent(t: number): number {
    const turn = this.startTurn();
    this.mark('speech_stopped', t, {}, { by: 'client' });
    return turn;
  }

  private tie(id: string, turn: number, field: 'userItemId' | 'responseId' | 'assistantItemId'): void {
    if (this.turnOf.has(id)) return;
    this.turnOf.set(id, turn);
    this.deps.emit({ type: 'turn-ids', turn, [field]: id });
  }

  /** One message from the service (audio already summarised). */
  server(m: ServerMessage): void {
    const str = (k: string): string | null => (typeof m[k] === 'string' ? (m[k] as string) : null);
    switch (m.type) {
      case 'input_audio_buffer.committed': {
        const itemId = str('item_id');
        if (itemId) this.tie(itemId, this.turn || this.startTurn(), 'userItemId');
        return;
      }
      case 'conversation.item.input_audio_transcription.updated':
      case 'conversation.item.input_audio_transcription.completed': {
        const itemId = str('item_id');
        if (itemId) this.deps.emit({ type: 'transcript', itemId, role: 'user', text: str('transcript') ?? '', mode: 'replace', final: m.type.endsWith('completed'), source: 'audio' });
        return;
      }
      case 'conversation.item.added':
      case 'conversation.item.created': {
        const item = m.item as Item | undefined;
        if (item?.id && item.role === 'user' && item.content?.some((c) => c.type === 'input_text')) {
          const text = item.content.map((c) => c.text ?? '').join('');
          this.tie(item.id, this.turn || this.startTurn(), 'userItemId');
          this.deps.emit({ type: 'transcript', itemId: item.id, role: 'user', text, mode: 'replace', final: true, source: 'text' });
        }
        return;
      }
      case 'response.created': {
        const id = (m.response as { id?: string } | undefined)?.id;
        if (id) this.tie(id, this.turn || this.startTurn(), 'responseId');
        this.deps.emit({ type: 'speaking', side: 'model', speaking: true });
        return;
      }
      case 'response.output_item.added': {
        const item = m.item as Item | undefined;
        const responseId = str('response_id');
        const turn = (responseId && this.turnOf.get(responseId)) || this.turn;
        if (item?.id && item.type === 'message') this.tie(item.id, turn, 'assistantItemId');
        return;
      }
      case 'response.output_audio_transcript.delta':
      case 'response.text.delta':
      case 'response.output_text.delta': {
        const itemId = str('item_id');
        if (itemId) this.deps.emit({ type: 'transcript', itemId, role: 'assistant', text: str('delta') ?? '', mode: 'delta', final: false, source: m.type.includes('audio') ? 'audio' : 'text' });
        return;
      }
      case 'response.output_audio_transcript.done':
      case 'response.output_text.done':
      case 'response.text.done': {
        const itemId = str('item_id');
        const text = str('transcript') ?? str('text');
        if (itemId && text !== null) this.deps.emit({ type: 'transcript', itemId, role: 'assistant', text, mode: 'replace', final: true, source: m.type.includes('audio') ? 'audio' : 'text' });
        return;
      }
      case 'conversation.item.truncated': {
        const itemId = str('item_id');
        if (itemId) this.deps.emit({ type: 'transcript-status', itemId, status: 'truncated', truncatedAtMs: typeof m.audio_end_ms === 'number' ? m.audio_end_ms : 0 });
        return;
      }
      case 'response.done':
        return this.responseDone(m);
      case 'error': {
        const e = (m.error ?? {}) as { code?: unknown; message?: unknown };
        this.deps.emit({ type: 'error', code: String(e.code ?? m.code ?? 'api_error'), message: String(e.message ?? m.message ?? 'The service reported an error.'), t: this.deps.now() });
        return;
      }
    }
  }

  private responseDone(m: ServerMessage): void {
    const response = (m.response ?? {}) as { id?: string; status?: string; output?: Item[]; usage?: Record<string, unknown> | null };
    const responseId = response.id ?? null;
    this.mark('response_done', this.deps.now(), { responseId }, { status: response.status ?? null });
    this.deps.emit({ type: 'speaking', side: 'model', speaking: false });
    for (const item of response.output ?? []) {
      if (item.id && item.type === 'message' && (response.status === 'cancelled' || item.status === 'incomplete')) {
        this.deps.emit({ type: 'transcript-status', itemId: item.id, status: 'cancelled' });
      }
    }
    const usage = response.usage ?? (m.usage as Record<string, unknown> | null | undefined);
    if (usage) this.deps.emit({ type: 'usage', usage: usageTotals(usage), costTicks: this.deps.cost?.(usage) ?? null });
    const calls: RealtimePendingToolCall[] = (response.output ?? [])
      .filter((item) => item.type === 'function_call' && item.call_id && item.name)
      .map((item) => ({ callId: item.call_id!, name: item.name!, arguments: item.arguments ?? '', itemId: item.id ?? null, responseId, at: this.deps.now(), answeredBy: this.deps.autoAnswers(item.name!) ? 'auto' : 'window' }));
    for (const call of calls) this.deps.emit({ type: 'tool-call', call });
    if (calls.length > 0) this.deps.onToolCalls(calls, responseId);
  }
}

/** One response's usage in the call's totals (`response.done`'s usage, spec names). */
export function usageTotals(u: Record<string, unknown>): Partial<RealtimeUsageTotals> {
  const n = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  const inD = (u.input_token_details ?? {}) as Record<string, unknown>;
  const outD = (u.output_token_details ?? {}) as Record<string, unknown>;
  return {
    responses: 1,
    inputTokens: n(u.input_tokens),
    outputTokens: n(u.output_tokens),
    totalTokens: n(u.total_tokens),
    inputAudioTokens: n(inD.audio_tokens),
    outputAudioTokens: n(outD.audio_tokens),
    inputTextTokens: n(inD.text_tokens),
    outputTextTokens: n(outD.text_tokens),
    cachedInputTokens: n(inD.cached_tokens),
  };
}
