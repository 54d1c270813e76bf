/**
 * One `/v1/realtime` connection (spec "Realtime WebSocket messages", wire-notes §2.2-2.3):
 * `session.created` then `conversation.created` on connect, then the client's events in order.
 * Errors are `error` events and the session stays open (spec Errors 9); nothing a client sends
 * closes it. One response runs at a time; `ping` keep-alives go out every `pingIntervalMs`.
 * Turns: `turn_detection: null` is manual (`input_audio_buffer.commit`); server VAD, barge-in,
 * the idle timeout and a SIP call's DTMF come from turns/ (TurnTaking) as actions this session
 * carries out (`act`).
 */
import { isObject } from '../../../shared/validate/violations';
import type { SocketContext } from '../socket-route';
import type { SandboxJoinedCall } from './call-link';
import { Conversation, itemWire, type ConversationItem } from './conversation';
import { EventSender, newId, type RealtimeErrorInfo } from './events';
import { decodeBase64, MulawConverter } from './input-audio';
import { itemCreate, itemDelete, itemRetrieve, itemTruncate, type ItemHost, type Message } from './session-items';
import { planResponse } from './plan';
import { RealtimeResponse } from './response';
import { checkResponseRequest } from './response-request';
import type { RealtimeChecked, RealtimeDeps } from './routes';
import { applySessionUpdate, defaultSession, sessionWire, type SessionConfig } from './session-config';
import { clipOf, SessionTurns } from './session-turns';
import { transcriptionEvents } from './turns/transcription';
import { audioMs } from './turns/barge-in';
import type { Committed } from './turns/turn-detector';
import type { TurnAction } from './turns/turn-taking';

/** Most audio a manual turn may buffer. */
const MAX_BUFFER_MS = 15 * 60 * 1000;
const CLIENT_TYPES = ['session.update', 'input_audio_buffer.append', 'input_audio_buffer.commit', 'input_audio_buffer.clear', 'conversation.item.create', 'conversation.item.delete', 'conversation.item.truncate', 'conversation.item.retrieve', 'response.create', 'response.cancel'];


export function openRealtimeSession(ctx: SocketContext, checked: RealtimeChecked, deps: RealtimeDeps): RealtimeSession {
  return new RealtimeSession(ctx, checked, deps);
}

export class RealtimeSession {
  readonly sender: EventSender;
  config: SessionConfig;
  readonly conversation = new Conversation();
  /** The input buffer and turn detection (turns/); set once its detector is loaded, before any client event is read. */
  private turns!: SessionTurns;
  response: RealtimeResponse | null = null;
  private lastInputTokens = 0;
  private chain: Promise<void> = Promise.resolve();
  private callJoin: SandboxJoinedCall | null = null;
  /** One timer for turns/' deadlines (the DTMF idle flush, the idle timeout), re-armed after every change. */
  private turnTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly ctx: SocketContext,
    checked: RealtimeChecked,
    private readonly deps: RealtimeDeps,
  ) {
    this.sender = new EventSender(ctx.ws);
    let config = defaultSession(newId('sess'), checked.model, checked.effort);
    if (checked.call) {
      // A phone call is G.711 µ-law at 8 kHz both ways unless the session says otherwise.
      config.input.format = { type: 'audio/pcmu', rate: 8000 };
      config.output.format = { type: 'audio/pcmu', rate: 8000 };
    }
    const stored = checked.auth.secret?.session;
    if (stored) {
      const applied = applySessionUpdate(config, stored, this.voiceOk);
      // Checked at mint; a custom voice deleted since is the only way this fails: keep the default then.
      if ('config' in applied) config = applied.config;
    }
    this.config = config;
    void this.sender.send('session.created', { session: sessionWire(this.config) });
    void this.sender.send('conversation.created', { conversation: { id: this.conversation.id, object: 'realtime.conversation' } });

    const ping = deps.options.pingIntervalMs ?? 20_000;
    const timer = setInterval(() => void this.sender.send('ping', { timestamp: deps.clock.now() }), ping);
    timer.unref();
    ctx.signal.addEventListener('abort', () => {
      clearInterval(timer);
      if (this.turnTimer) clearTimeout(this.turnTimer);
      this.response?.cancel();
      this.callJoin?.leave();
      void this.chain.then(() => this.turns?.dispose());
    });
    // Client events wait for the detector (a WebAssembly module, loaded once per process).
    this.chain = SessionTurns.create(this.config.input.format, this.config.turn_detection, deps.clock.now()).then((turns) => {
      this.turns = turns;
      this.armTurnTimer();
      if (ctx.signal.aborted || !checked.call) return;
      const joined = checked.call.join({
        audio: (frame) => {
          this.chain = this.chain.then(() => (ctx.signal.aborted ? undefined : this.act(this.turns.appendCaller(frame, deps.clock.now()))));
        },
        dtmf: (digit) => {
          this.chain = this.chain.then(() => {
            if (ctx.signal.aborted) return;
            const r = this.turns.dtmf(digit, deps.clock.now());
            return 'code' in r ? this.error(null, { code: r.code, message: r.message }) : this.act(r);
          });
        },
        ended: (end) => ctx.ws.close(1000, Buffer.from(end.message).subarray(0, 123).toString()),
      });
      if (joined.ok) this.callJoin = joined.call;
      else ctx.ws.close(1008, Buffer.from(joined.message).subarray(0, 123).toString());
    });
    ctx.ws.on('message', (data, isBinary) => {
      this.chain = this.chain.then(() => this.receive(data as Buffer, isBinary)).catch((err: unknown) => {
        for (const line of `${ctx.requestId} realtime session failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`.split('\n')) deps.log(line);
        void this.sender.error({ type: 'server_error', code: 'server_error', message: `The sandbox hit an internal error (request ${ctx.requestId}); see its log.` });
      });
    });
  }

  private readonly voiceOk = (voice: string) => this.deps.voiceOk(this.ctx.team)(voice);

  private error(message: Message | null, info: Omit<RealtimeErrorInfo, 'event_id'>): Promise<void> {
    return this.sender.error({ ...info, event_id: typeof message?.event_id === 'string' ? message.event_id : null });
  }

  private async receive(data: Buffer, isBinary: boolean): Promise<void> {
    if (isBinary) return this.error(null, { code: 'invalid_event', message: 'Binary frames are not accepted: the transport is "json" (send input_audio_buffer.append with base64 audio).' });
    let message: unknown;
    try {
      message = JSON.parse(data.toString('utf8'));
    } catch {
      return this.error(null, { code: 'invalid_json', message: 'The message is not JSON: send one JSON client event per message.' });
    }
    if (!isObject(message) || typeof message.type !== 'string') return this.error(null, { code: 'invalid_event', message: 'A client event is a JSON object with a string "type".', param: 'type' });
    const m = message as Message;
    if (m.event_id !== undefined && typeof m.event_id !== 'string') return this.error(null, { code: 'invalid_type', message: 'event_id must be a string.', param: 'event_id' });
    switch (m.type) {
      case 'session.update':
        return this.sessionUpdate(m);
      case 'input_audio_buffer.append':
        return this.append(m);
      case 'input_audio_buffer.commit':
        return this.commit(m);
      case 'input_audio_buffer.clear':
        this.turns.clear();
        return this.sender.send('input_audio_buffer.cleared');
      case 'conversation.item.create':
        return itemCreate(this.itemHost, m);
      case 'conversation.item.delete':
        return itemDelete(this.itemHost, m);
      case 'conversation.item.truncate':
        return itemTruncate(this.itemHost, m);
      case 'conversation.item.retrieve':
        return itemRetrieve(this.itemHost, m);
      case 'response.create':
        return this.responseCreate(m);
      case 'response.cancel':
        return this.responseCancel(m);
      default:
        return this.error(m, { code: 'invalid_event', message: `Unknown event type '${m.type}'. Client events: ${CLIENT_TYPES.join(', ')}.`, param: 'type' });
    }
  }

  private async sessionUpdate(m: Message): Promise<void> {
    if (m.session === undefined) return this.error(m, { code: 'missing_required_parameter', message: "Missing required parameter: 'session'.", param: 'session' });
    const applied = applySessionUpdate(this.config, m.session, this.voiceOk);
    if ('issues' in applied) {
      const first = applied.issues[0];
      return this.error(m, { code: first.code, param: first.param, message: applied.issues.map((i) => i.message).join('; ') });
    }
    this.config = applied.config;
    await this.turns.update(this.config.input.format, this.config.turn_detection, this.deps.clock.now());
    this.armTurnTimer();
    return this.sender.send('session.updated', { session: sessionWire(this.config) });
  }

  private append(m: Message): Promise<void> {
    if (typeof m.audio !== 'string') return this.error(m, { code: 'missing_required_parameter', message: "Missing required parameter: 'audio' (base64 audio in the session's input format).", param: 'audio' });
    const bytes = decodeBase64(m.audio);
    if (!bytes) return this.error(m, { code: 'invalid_value', message: 'audio is not valid base64.', param: 'audio' });
    // Manual mode keeps everything until a commit: bounded, as a client that never commits must not grow the sandbox.
    if (this.turns.mode === 'manual' && this.turns.bufferedMs > MAX_BUFFER_MS) {
      return this.error(m, { code: 'input_audio_buffer_full', message: 'The input audio buffer holds 15 minutes of audio: commit or clear it.', param: 'audio' });
    }
    return this.act(this.turns.append(bytes, this.deps.clock.now()));
  }

  /** What turns/ decided (TurnTaking keeps the ordering rules: DTMF flushed before speech, barge-in, then speech_started). */
  private async act(actions: TurnAction[]): Promise<void> {
    for (const a of actions) {
      if (a.kind === 'send') await this.sender.send(a.type, a.fields);
      else if (a.kind === 'cancel_response') {
        this.response?.cancel('turn_detected');
        // On a call the line stops playing the answer at once: what was queued ahead is not heard.
        this.callJoin?.modelAudioInterrupted?.();
      }
      else if (a.kind === 'user_audio') {
        await this.committed(a.committed);
        if (a.respond) await this.respondNow();
      } else if (a.kind === 'check_in') {
        await this.committed(a.committed);
        await this.respondNow(a.text);
      } else {
        const item: ConversationItem = { id: newId('item'), object: 'realtime.item', type: 'message', status: 'completed', role: 'user', content: [{ type: 'input_text', text: a.text }] };
        this.conversation.insert(item);
        await this.sender.send('conversation.item.added', { previous_item_id: this.conversation.previousOf(item), item: itemWire(item) });
        if (a.respond) await this.respondNow();
      }
    }
    this.armTurnTimer();
  }

  /** A response the server starts by itself (a VAD turn, DTMF, a check-in): a cancelled one still ending is waited for. */
  private async respondNow(say?: string): Promise<void> {
    const running = this.response;
    if (running) {
      running.cancel('turn_detected');
      await running.done.catch(() => undefined);
      if (this.response === running) this.response = null;
    }
    await this.responseCreate({ type: 'response.create' }, say);
  }

  /** One timer at turns/' next deadline. */
  private armTurnTimer(): void {
    if (this.turnTimer) clearTimeout(this.turnTimer);
    this.turnTimer = null;
    const due = this.turns.t.deadline();
    if (due === null || this.ctx.signal.aborted) return;
    this.turnTimer = setTimeout(() => {
      this.chain = this.chain.then(() => (this.ctx.signal.aborted ? undefined : this.act(this.turns.t.tick(this.deps.clock.now()))));
    }, Math.max(0, due - this.deps.clock.now()));
  }

  /** A committed user turn: committed, conversation.item.added, then its transcription when the session asks for one. */
  private async committed(c: Committed): Promise<void> {
    const item: ConversationItem = { id: c.itemId, object: 'realtime.item', type: 'message', status: 'completed', role: 'user', content: [{ type: 'input_audio', transcript: null }], audio: clipOf(c) };
    this.conversation.insert(item);
    const previous = this.conversation.previousOf(item);
    await this.sender.send('input_audio_buffer.committed', { previous_item_id: previous, item_id: item.id });
    await this.sender.send('conversation.item.added', { previous_item_id: previous, item: itemWire(item) });
    const config = this.config.input.transcription;
    if (!config) return;
    for (const { atMs: _at, ...event } of await transcriptionEvents(item.id, c.audio, c.sampleRate, config, { signal: this.ctx.signal })) {
      if (event.type.endsWith('.completed') && 'transcript' in event) item.content = [{ type: 'input_audio', transcript: event.transcript }];
      const { type, ...fields } = event;
      await this.sender.send(type, fields);
    }
  }

  private async commit(m: Message): Promise<void> {
    if (this.config.turn_detection !== null) {
      return this.error(m, { code: 'invalid_request', message: 'input_audio_buffer.commit is for manual turns: set turn_detection to null with session.update (with server_vad the server commits by itself).' });
    }
    const c = this.turns.commit(this.deps.clock.now());
    if ('code' in c) return this.error(m, { code: c.code, message: c.message });
    await this.act(c);
  }

  /** What the conversation.item.* handlers (session-items.ts) use of the session. */
  private get itemHost(): ItemHost {
    return {
      conversation: this.conversation,
      sender: this.sender,
      response: this.response,
      inputFormat: this.config.input.format,
      fail: (m, info) => this.error(m, info),
      userActivity: () => {
        this.turns.t.userItem(this.deps.clock.now());
        this.armTurnTimer();
      },
    };
  }

  /** `say`: the words to speak instead of planning them (the idle check-in). */
  private responseCreate(m: Message, say?: string): Promise<void> {
    if (this.response) return this.error(m, { code: 'conversation_already_has_active_response', message: `Response ${this.response.id} is in progress: wait for its response.done or send response.cancel.` });
    const request = checkResponseRequest(m.response, this.config, this.voiceOk);
    if ('issues' in request) {
      const first = request.issues[0];
      return this.error(m, { code: first.code, param: first.param, message: request.issues.map((i) => i.message).join('; ') });
    }
    const plan = say !== undefined ? { kind: 'message' as const, text: say } : planResponse({ items: this.conversation.items, instructions: request.instructions, model: this.config.model, tools: request.tools, toolChoice: request.toolChoice });
    const converter = this.callJoin ? new MulawConverter(this.config.output.format) : null;
    const response = new RealtimeResponse({
      sender: this.sender,
      conversation: this.conversation,
      keep: request.keep,
      tts: this.deps.tts,
      team: this.ctx.team,
      clock: this.deps.clock,
      voice: request.voice,
      speed: this.config.output.speed,
      format: this.config.output.format,
      modalities: request.modalities,
      instructions: request.instructions,
      maxOutputTokens: request.maxOutputTokens,
      metadata: request.metadata,
      leadMs: this.deps.options.audioLeadMs ?? 1000,
      tokenDelayMs: this.deps.tokenDelayMs,
      cachedTokens: this.lastInputTokens,
      onAudio: (itemId, bytes) => {
        // What went out is what a barge-in can have been heard of (turns/barge-in.ts).
        if (!this.ctx.signal.aborted) this.turns.t.audioSent(itemId, audioMs(bytes.length, this.config.output.format));
        if (converter && this.callJoin?.modelAudio) this.callJoin.modelAudio(converter.push(bytes));
      },
    });
    this.response = response;
    this.turns.t.responseStarted(response.id);
    this.armTurnTimer();
    // The response runs beside the message loop: later client events (a cancel) are read meanwhile.
    response
      .run(plan)
      .catch((err: unknown) => {
        for (const line of `${this.ctx.requestId} realtime response failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`.split('\n')) this.deps.log(line);
        void this.sender.error({ type: 'server_error', code: 'server_error', message: `The response failed inside the sandbox (request ${this.ctx.requestId}); see its log.` });
      })
      .finally(() => {
        // The resampler's last samples (its filter's lag, a few ms): the end of the answer, not lost.
        // A cancelled answer was cut off on the line (modelAudioInterrupted), so its tail is not sent.
        if (converter && this.callJoin?.modelAudio && response.status !== 'cancelled' && response.status !== 'failed') {
          const tail = converter.flush();
          if (tail.length > 0) this.callJoin.modelAudio(tail);
        }
        if (response.usage) this.lastInputTokens = response.usage.input_tokens;
        if (this.response === response) this.response = null;
        if (this.ctx.signal.aborted) return;
        this.turns.t.responseDone(response.id, this.deps.clock.now(), response.playbackEndsAt ?? this.deps.clock.now());
        this.armTurnTimer();
      });
    return Promise.resolve();
  }

  private responseCancel(m: Message): Promise<void> {
    if (!this.response) return this.error(m, { code: 'response_cancel_not_active', message: 'There is no response in progress to cancel.' });
    if (typeof m.response_id === 'string' && m.response_id !== this.response.id) return this.error(m, { code: 'invalid_value', message: `Response ${m.response_id} is not the one in progress (${this.response.id}).`, param: 'response_id' });
    this.response.cancel();
    return Promise.resolve();
  }
}
