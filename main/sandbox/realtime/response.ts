/**
 * One realtime response, as the spec's example orders it: `response.created`,
 * `response.output_item.added`, `response.content_part.added`, then per synthesised part
 * `response.output_audio.delta` chunks (≤ 100 ms each, in the session's output format, at most
 * `leadMs` ahead of real time) followed by that part's `response.output_audio_transcript.delta`
 * (its exact spoken characters), `response.output_audio.done`, `…transcript.done`,
 * `response.content_part.done`, `response.output_item.done`, `response.done` with usage.
 * Text modality: `response.output_text.delta` and `response.text.delta` (identical) per token.
 * A function call: `response.function_call_arguments.delta` …`.done`. A cancel stops the audio at
 * once and ends with `status: "cancelled"` (the item `incomplete`, keeping what was sent).
 */
import { SandboxError } from '../errors';
import { tokenize } from '../generate/tokenizer';
import type { Clock } from '../clock';
import type { TtsService } from '../tts/service';
import type { TtsSettings } from '../tts/request';
import { itemWire, type Conversation, type ConversationItem } from './conversation';
import { newId, type EventSender } from './events';
import type { ResponsePlan } from './plan';
import type { AudioFormat, Modality } from './session-config';
import { responseUsage, type Usage } from './usage';

export interface ResponseSetup {
  sender: EventSender;
  conversation: Conversation;
  /** false: an out-of-band response (`conversation: "none"`), its items not kept. */
  keep: boolean;
  tts: TtsService;
  team: string;
  clock: Clock;
  voice: string;
  speed: number;
  format: AudioFormat;
  modalities: Modality[];
  instructions: string;
  maxOutputTokens: number | 'inf';
  metadata: Record<string, unknown> | null;
  leadMs: number;
  tokenDelayMs: number;
  /** Input tokens cached from the previous response (a conversation's prefix). */
  cachedTokens: number;
  /** Each chunk of the model's audio as sent, with its item (barge-in accounting; a SIP call hears it). */
  onAudio?: (itemId: string, bytes: Uint8Array) => void;
}

const CHUNK_MS = 100;

export class RealtimeResponse {
  readonly id = newId('resp');
  private readonly controller = new AbortController();
  status: 'in_progress' | 'completed' | 'cancelled' | 'incomplete' | 'failed' = 'in_progress';
  /** The assistant item being written (truncate waits for it). */
  item: ConversationItem | null = null;
  usage: Usage | null = null;
  /** Sandbox-clock ms when the audio sent would end playing in real time (null: no audio). */
  playbackEndsAt: number | null = null;
  done: Promise<void> = Promise.resolve();

  constructor(private readonly s: ResponseSetup) {}

  private cancelReason: 'client_cancelled' | 'turn_detected' = 'client_cancelled';

  /** Stops the response; `turn_detected` when the user's speech interrupted it (server VAD barge-in). */
  cancel(reason: 'client_cancelled' | 'turn_detected' = 'client_cancelled'): void {
    if (this.status !== 'in_progress' || this.controller.signal.aborted) return;
    this.cancelReason = reason;
    this.controller.abort();
  }

  private get cancelled(): boolean {
    return this.controller.signal.aborted;
  }

  private wire(output: ConversationItem[], statusDetails: unknown = null): Record<string, unknown> {
    return {
      id: this.id,
      object: 'realtime.response',
      status: this.status,
      status_details: statusDetails,
      output: output.map(itemWire),
      conversation_id: this.s.keep ? this.s.conversation.id : null,
      output_modalities: this.s.modalities,
      max_output_tokens: this.s.maxOutputTokens,
      audio: { output: { format: this.s.format, voice: this.s.voice } },
      usage: this.usage,
      metadata: this.s.metadata,
    };
  }

  /** Sends the whole response; resolves after `response.done`. */
  run(plan: ResponsePlan): Promise<void> {
    this.done = this.play(plan);
    return this.done;
  }

  private async play(plan: ResponsePlan): Promise<void> {
    const { sender } = this.s;
    const inputItems = [...this.s.conversation.items];
    await sender.send('response.created', { response: this.wire([]) });
    const ids = { response_id: this.id };
    let item: ConversationItem;
    let details: unknown = null;
    let outputText = '';
    let audioMs = 0;
    if (plan.kind === 'function_call') {
      item = { id: newId('item'), object: 'realtime.item', type: 'function_call', status: 'in_progress', call_id: plan.callId, name: plan.name, arguments: '' };
      this.add(item);
      await sender.send('response.output_item.added', { ...ids, output_index: 0, item: itemWire(item) });
      const pieces = plan.arguments.match(/[\s\S]{1,8}/g) ?? [];
      for (const piece of pieces) {
        if (this.cancelled) break;
        await this.s.clock.sleep(this.s.tokenDelayMs, this.controller.signal);
        if (this.cancelled) break;
        item.arguments += piece;
        await sender.send('response.function_call_arguments.delta', { ...ids, item_id: item.id, output_index: 0, call_id: plan.callId, delta: piece });
      }
      if (!this.cancelled) await sender.send('response.function_call_arguments.done', { ...ids, item_id: item.id, output_index: 0, call_id: plan.callId, name: plan.name, arguments: item.arguments });
      outputText = item.arguments ?? '';
    } else {
      const audio = this.s.modalities.includes('audio');
      item = { id: newId('item'), object: 'realtime.item', type: 'message', status: 'in_progress', role: 'assistant', content: [] };
      this.item = item;
      this.add(item);
      await sender.send('response.output_item.added', { ...ids, output_index: 0, item: itemWire(item) });
      const part = { ...ids, item_id: item.id, output_index: 0, content_index: 0 };
      await sender.send('response.content_part.added', { ...part, part: audio ? { type: 'audio', transcript: '' } : { type: 'text', text: '' } });
      let text = plan.text;
      const limit = this.s.maxOutputTokens;
      if (limit !== 'inf' && tokenize(text).length > limit) {
        text = tokenize(text).slice(0, limit).join('');
        details = { type: 'incomplete', reason: 'max_output_tokens' };
      }
      if (audio) {
        item.spoken = { chars: [], endsMs: [], totalMs: 0 };
        try {
          await this.speak(text, part, item);
        } catch (err) {
          if (!(err instanceof SandboxError)) throw err;
          this.status = 'failed';
          details = { type: 'failed', error: { type: 'invalid_request_error', code: 'voice_unavailable', message: err.message } };
        }
        outputText = item.spoken.chars.join('');
        audioMs = item.spoken.totalMs;
        await sender.send('response.output_audio.done', part);
        await sender.send('response.output_audio_transcript.done', { ...part, transcript: outputText });
        item.content = [{ type: 'audio', transcript: outputText }];
        await sender.send('response.content_part.done', { ...part, part: { type: 'audio', transcript: outputText } });
      } else {
        for (const token of tokenize(text)) {
          if (this.cancelled) break;
          await this.s.clock.sleep(this.s.tokenDelayMs, this.controller.signal);
          if (this.cancelled) break;
          outputText += token;
          await sender.send('response.output_text.delta', { ...part, delta: token });
          await sender.send('response.text.delta', { ...part, delta: token });
        }
        await sender.send('response.output_text.done', { ...part, text: outputText });
        await sender.send('response.text.done', { ...part, text: outputText });
        item.content = [{ type: 'text', text: outputText }];
        await sender.send('response.content_part.done', { ...part, part: { type: 'text', text: outputText } });
      }
    }
    if (this.status === 'in_progress') this.status = this.cancelled ? 'cancelled' : details ? 'incomplete' : 'completed';
    if (this.status === 'cancelled') details = { type: 'cancelled', reason: this.cancelReason };
    item.status = this.status === 'completed' ? 'completed' : 'incomplete';
    await sender.send('response.output_item.done', { ...ids, output_index: 0, item: itemWire(item) });
    this.usage = responseUsage({ inputItems, instructions: this.s.instructions, outputText, audioMs, cachedTokens: this.s.cachedTokens });
    await sender.send('response.done', { response: this.wire([item], details) });
  }

  private add(item: ConversationItem): void {
    if (this.s.keep) this.s.conversation.insert(item);
  }

  /** Synthesises `text` part by part; each part's audio in ≤ 100 ms chunks, then its transcript delta. */
  private async speak(text: string, ids: Record<string, unknown>, item: ConversationItem): Promise<void> {
    const { tts, format, sender } = this.s;
    const spoken = item.spoken as NonNullable<ConversationItem['spoken']>;
    const profile = tts.profile(this.s.team, this.s.voice);
    const settings: TtsSettings = {
      voice: this.s.voice,
      language: 'en',
      format: { codec: format.type === 'audio/pcmu' ? 'mulaw' : format.type === 'audio/pcma' ? 'alaw' : 'pcm', sampleRate: format.rate, bitRate: 128000 },
      speed: this.s.speed,
      optimizeStreamingLatency: 1,
      textNormalization: false,
      withTimestamps: false,
    };
    const bytesPerMs = (format.type === 'audio/pcm' ? 2 : 1) * (format.rate / 1000);
    const chunkBytes = Math.max(2, Math.round(CHUNK_MS * bytesPerMs) & ~1);
    const started = Date.now();
    const startedClock = this.s.clock.now();
    let sentMs = 0;
    for await (const part of tts.utterance([text], settings, profile, tts.language('en', text), this.controller.signal)) {
      for (let at = 0; at < part.bytes.length; at += chunkBytes) {
        // Paced: at most `leadMs` of audio ahead of real time, so a cancel stops what is not yet sent.
        const wait = sentMs - this.s.leadMs - (Date.now() - started);
        if (wait > 0 && Number.isFinite(wait)) await this.s.clock.sleep(wait, this.controller.signal);
        if (this.cancelled) return;
        const chunk = part.bytes.subarray(at, at + chunkBytes);
        sentMs += chunk.length / bytesPerMs;
        spoken.totalMs = Math.round(sentMs);
        this.playbackEndsAt = startedClock + spoken.totalMs;
        this.s.onAudio?.(item.id, chunk);
        await sender.send('response.output_audio.delta', { ...ids, delta: Buffer.from(chunk).toString('base64') });
      }
      if (part.chars.length > 0) {
        const base = spoken.totalMs - Math.round(part.duration * 1000);
        spoken.chars.push(...part.chars);
        // Character times are from the utterance's start; kept as ms for truncation.
        spoken.endsMs.push(...part.times.map(([, end]) => Math.max(base, Math.round(end * 1000))));
        await sender.send('response.output_audio_transcript.delta', { ...ids, delta: part.chars.join('') });
      }
      if (this.cancelled) return;
    }
  }
}
