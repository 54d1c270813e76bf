/**
 * A streaming transcription session (WebSocket `/v1/stt`, spec "Streaming speech-to-text
 * messages", wire-notes 4.2) with no socket: binary frames and text messages in, server messages
 * and possibly a close out. The socket route only moves bytes.
 *
 * - `transcript.created` first (start()).
 * - Binary frames: decoded (frames.ts) and fed to one ChannelTranscriber per channel; their events
 *   carry `channel_index` when multichannel. An undecodable frame: `error`, then close 1007.
 * - `finalize` / `Finalize` (optional 0-based `channel`, else every channel): a speech_final now.
 * - `audio.done`: one `transcript.done` per channel (with `duration`), then close 1000.
 * - A text message that is not JSON or not a known message: `error`, and the session goes on (the
 *   spec: only client message parse errors keep it open).
 */
import { ChannelTranscriber, type DoneEvent, type PartialEvent } from './channel';
import { FrameDecoder, FrameError } from './frames';
import type { StreamOptions } from './params';
import { mixDown } from './transcribe';

export type ServerMessage =
  | { type: 'transcript.created' }
  | (PartialEvent & { channel_index?: number })
  | (DoneEvent & { channel_index?: number })
  | { type: 'error'; message: string };

export interface SessionStep {
  messages: ServerMessage[];
  /** Close the connection after sending the messages (WebSocket close code and reason). */
  close?: { code: number; reason: string };
}

/** WebSocket close codes the session uses (RFC 6455 7.4.1). */
export const CLOSE_NORMAL = 1000;
export const CLOSE_INVALID_DATA = 1007;

export class SttSession {
  private ended = false;

  private constructor(
    readonly options: StreamOptions,
    private readonly decoder: FrameDecoder,
    private readonly channels: ChannelTranscriber[],
  ) {}

  static async create(options: StreamOptions): Promise<SttSession> {
    const count = options.encoding === 'opus' ? 1 : options.channels;
    const decoder = await FrameDecoder.create(options.encoding, count);
    // Without multichannel, interleaved channels are mixed down to one and transcribed once.
    const transcribed = options.multichannel ? count : 1;
    const channels = await Promise.all(
      Array.from({ length: transcribed }, () =>
        ChannelTranscriber.create({
          sampleRate: options.sampleRate,
          vadThreshold: options.vadThreshold,
          interimResults: options.interimResults,
          endpointingMs: options.endpointingMs,
          smartTurn: options.smartTurn,
          smartTurnTimeoutMs: options.smartTurnTimeoutMs,
          diarize: options.diarize,
          style: options.style,
        }),
      ),
    );
    return new SttSession(options, decoder, channels);
  }

  get isEnded(): boolean {
    return this.ended;
  }

  start(): SessionStep {
    return { messages: [{ type: 'transcript.created' }] };
  }

  /** A binary frame of audio. */
  audio(frame: Uint8Array): SessionStep {
    if (this.ended) return { messages: [] };
    let pcm: Int16Array[];
    try {
      pcm = this.decoder.decode(frame);
    } catch (err) {
      if (!(err instanceof FrameError)) throw err;
      this.end();
      return { messages: [{ type: 'error', message: err.message }], close: { code: CLOSE_INVALID_DATA, reason: 'invalid audio frame' } };
    }
    return { messages: this.pcm(pcm) };
  }

  /** Decoded PCM, one array per channel of the stream (the state machine's entry for tests too). */
  pcm(perChannel: Int16Array[]): ServerMessage[] {
    const inputs = this.options.multichannel ? perChannel : [mixDown(perChannel)];
    return inputs.flatMap((samples, i) => this.tag(this.channels[i].push(samples), i));
  }

  /** A text message from the client. */
  message(text: string): SessionStep {
    if (this.ended) return { messages: [] };
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      return this.clientError(`Could not parse the message as JSON: ${clip(text)}. Send {"type":"finalize"} or {"type":"audio.done"}; audio goes in binary frames.`);
    }
    const type = typeof msg === 'object' && msg !== null ? (msg as { type?: unknown }).type : undefined;
    if (type === 'finalize' || type === 'Finalize') return this.finalize((msg as { channel?: unknown }).channel);
    if (type === 'audio.done') return this.done();
    return this.clientError(`Unknown message type ${JSON.stringify(type ?? null)}; the client messages are finalize (or Finalize) and audio.done, and audio goes in binary frames.`);
  }

  private finalize(channel: unknown): SessionStep {
    let targets = this.channels.map((_, i) => i);
    if (channel !== undefined && channel !== null) {
      const max = this.channels.length - 1;
      if (!this.options.multichannel) return this.clientError('finalize takes a channel only on a multichannel session; leave it out.');
      if (typeof channel !== 'number' || !Number.isInteger(channel) || channel < 0 || channel > max) {
        return this.clientError(`finalize channel must be an integer from 0 to ${max} (0-based), not ${JSON.stringify(channel)}.`);
      }
      targets = [channel];
    }
    return { messages: targets.flatMap((i) => this.tag(this.channels[i].finalize(), i)) };
  }

  private done(): SessionStep {
    const messages = this.channels.map((ch, i) => this.tagOne(ch.done(), i));
    this.ended = true;
    this.decoder.dispose();
    return { messages, close: { code: CLOSE_NORMAL, reason: 'transcript done' } };
  }

  /** Frees the detectors and decoder (the socket closed before audio.done). */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    for (const ch of this.channels) ch.dispose();
    this.decoder.dispose();
  }

  private clientError(message: string): SessionStep {
    return { messages: [{ type: 'error', message }] };
  }

  private tag(events: PartialEvent[], channel: number): ServerMessage[] {
    return events.map((e) => this.tagOne(e, channel));
  }

  private tagOne<T extends PartialEvent | DoneEvent>(event: T, channel: number): T & { channel_index?: number } {
    return this.options.multichannel ? { ...event, channel_index: channel } : event;
  }
}

const clip = (t: string) => JSON.stringify(t.length > 60 ? `${t.slice(0, 60)}…` : t);
