/**
 * One WebSocket `/v1/tts` connection (spec Events "Streaming text-to-speech", wire-notes §3.2):
 *   → {"type":"text.delta","delta":"…"} (each ≤ 60,000 characters; an utterance too)
 *   → {"type":"text.done"}                 the utterance is complete
 *   ← {"type":"audio.delta","delta":"<base64>"[, "audio_timestamps":{graph_chars, graph_times}, "audio_duration":s]}
 *   ← {"type":"audio.done","trace_id":"…"}
 * Synthesis starts as soon as a whole clause has arrived (`. ! ? , ; :` or a spaced dash, no
 * wrapping tag open across its end), not at text.done nor at a sentence end: the utterance's first
 * clause is synthesised alone so its audio comes soonest; the rest of the utterance follows. Utterances are spoken in order; text for
 * the next one may arrive while one is being spoken.
 * Each audio.delta is one synthesised part (a clause or sentence, a tag) in the connection's codec; with
 * timestamps, `graph_times` are seconds from the start of the utterance and `audio_duration` the
 * part's length. The MP3 encoder's last bytes come as a final delta with no characters.
 * A bad message gets {"type":"error","message":…} and the connection stays open.
 */
import { randomUUID } from 'node:crypto';
import { LIMITS } from '../../../shared/limits';
import { SandboxError } from '../errors';
import type { SocketContext } from '../socket-route';
import { readyPrefix } from './markup';
import { checkText, type TtsSettings } from './request';
import type { TtsService } from './service';

function send(ctx: SocketContext, message: Record<string, unknown>): Promise<void> {
  if (ctx.ws.readyState !== ctx.ws.OPEN) return Promise.resolve();
  // Waiting for each write is the back-pressure: a slow reader slows synthesis, not memory.
  return new Promise((resolve) => ctx.ws.send(JSON.stringify(message), () => resolve()));
}

/** An utterance's text as it becomes ready: whole clauses while deltas arrive, the rest at text.done. */
class Utterance implements AsyncIterable<string> {
  /** Characters received so far (the 60,000 limit is per utterance too). */
  length = 0;
  /** Text not yet ready to speak (an unfinished clause or an open wrapping tag). */
  buffer = '';
  /** The first segment: `auto` picks the language from it. */
  first: string | null = null;
  private readonly ready: string[] = [];
  private closed = false;
  private wake: (() => void) | null = null;

  push(segment: string): void {
    this.first ??= segment;
    this.ready.push(segment);
    this.wake?.();
  }

  close(): void {
    this.closed = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<string> {
    for (;;) {
      const next = this.ready.shift();
      if (next !== undefined) yield next;
      else if (this.closed) return;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

export function openTtsStream(tts: TtsService, ctx: SocketContext, settings: TtsSettings, log: (line: string) => void): void {
  let current = new Utterance();
  /** Utterances with text to speak, in order; the first is being spoken. */
  const queue: Utterance[] = [];
  let speaking = false;
  const error = (message: string) => void send(ctx, { type: 'error', message });

  async function speak(): Promise<void> {
    if (speaking) return;
    speaking = true;
    try {
      while (queue.length > 0 && !ctx.signal.aborted) {
        const utterance = queue[0];
        try {
          const profile = tts.profile(ctx.team, settings.voice);
          const language = tts.language(settings.language, utterance.first ?? '');
          for await (const part of tts.utterance(utterance, settings, profile, language, ctx.signal)) {
            if (part.bytes.length === 0 && part.chars.length === 0) continue;
            await send(ctx, {
              type: 'audio.delta',
              delta: Buffer.from(part.bytes).toString('base64'),
              ...(settings.withTimestamps ? { audio_timestamps: { graph_chars: part.chars, graph_times: part.times }, audio_duration: Math.round(part.duration * 1000) / 1000 } : {}),
            });
          }
          if (!ctx.signal.aborted) await send(ctx, { type: 'audio.done', trace_id: randomUUID() });
        } catch (err) {
          if (err instanceof SandboxError) error(err.message);
          else {
            ctx.ws.close(1011, 'The sandbox hit an internal error while synthesising; see its log.');
            throw err;
          }
        } finally {
          queue.shift();
        }
      }
    } finally {
      speaking = false;
    }
  }

  /** Hands a ready segment to the current utterance, which starts being spoken with its first. */
  function ready(segment: string): void {
    if (current.first === null) {
      queue.push(current);
      void speak().catch((err: unknown) => {
        for (const line of `${ctx.requestId} tts stream failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`.split('\n')) log(line);
      });
    }
    current.push(segment);
  }

  ctx.signal.addEventListener('abort', () => {
    current.close();
    for (const u of queue) u.close();
  });

  ctx.ws.on('message', (data, isBinary) => {
    if (isBinary) return error('Binary frames are not accepted on /v1/tts: send JSON text messages ({"type":"text.delta","delta":"…"}, {"type":"text.done"}).');
    let message: unknown;
    try {
      message = JSON.parse(String(data));
    } catch {
      return error('The message is not JSON: send {"type":"text.delta","delta":"…"} or {"type":"text.done"}.');
    }
    const type = typeof message === 'object' && message !== null ? (message as { type?: unknown }).type : undefined;
    if (type === 'text.delta') {
      const delta = (message as { delta?: unknown }).delta;
      const violation = checkText(delta, 'delta', true);
      if (violation) return error(`text.delta ${violation.message}`);
      const length = [...(delta as string)].length;
      if (current.length + length > LIMITS.ttsText.max) {
        return error(`The utterance would be ${(current.length + length).toLocaleString('en-US')} characters; the limit is ${LIMITS.ttsText.max.toLocaleString('en-US')}. Send text.done to speak what came so far.`);
      }
      current.length += length;
      current.buffer += delta as string;
      // Whole clauses are spoken while the rest arrives: the first audio does not wait for
      // text.done, nor for a sentence end. The utterance's first clause goes alone (its audio
      // comes soonest), then everything ready after it.
      for (let cut = readyPrefix(current.buffer, current.first === null ? 'first' : 'last'); cut > 0; cut = readyPrefix(current.buffer)) {
        const segment = current.buffer.slice(0, cut);
        current.buffer = current.buffer.slice(cut);
        ready(segment);
      }
      return;
    }
    if (type === 'text.done') {
      if (current.buffer.trim() !== '') ready(current.buffer);
      current.buffer = '';
      if (current.first === null) return error('text.done with no text: send text.delta messages first.');
      current.close();
      current = new Utterance();
      return;
    }
    error(`Unknown message type ${JSON.stringify(type ?? null)}: send "text.delta" or "text.done".`);
  });
}
