/**
 * Compaction (`POST /v1/responses/compact`): a conversation folded into a short summary, carried
 * in an opaque `encrypted_content` that the client passes back as an input item. The content is
 * base64url JSON plus an HMAC under a per-sandbox secret, so a changed or foreign item is refused
 * instead of silently feeding the model made-up context. Not encryption: the sandbox only needs
 * the item to be tamper-evident, and readable in a debugger.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ChatMessage } from '../../../shared/wire/chat';
import { messageText } from '../generate/tool-calls';

/** What a compaction item carries. */
export interface CompactionPayload {
  v: 1;
  team: string;
  model: string;
  /** The folded conversation, as the model will see it. */
  summary: string;
  dropped: number;
}

/** Name on the system message a compaction turns into, so recall can tell it apart. */
export const COMPACTION_NAME = 'compaction';
/** Words kept from each message: short enough that the summary is always smaller than the messages. */
const WORDS_PER_MESSAGE = 12;

export class CompactionCodec {
  private readonly secret: Buffer;

  constructor(secret: Buffer = randomBytes(32)) {
    this.secret = secret;
  }

  encode(payload: CompactionPayload): string {
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  /** The payload, or null when the text was not issued by this sandbox for this team. */
  decode(text: string, team: string): CompactionPayload | null {
    const [body, mac, extra] = text.split('.');
    if (!body || !mac || extra !== undefined) return null;
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as CompactionPayload;
      return payload.v === 1 && payload.team === team && typeof payload.summary === 'string' ? payload : null;
    } catch {
      return null;
    }
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url');
  }
}

function clip(text: string): string {
  const words = text.trim().split(/\s+/).filter(Boolean);
  return words.length <= WORDS_PER_MESSAGE ? words.join(' ') : `${words.slice(0, WORDS_PER_MESSAGE).join(' ')}…`;
}

function line(m: ChatMessage): string {
  if (m.role === 'system' && m.name === COMPACTION_NAME) return messageText(m);
  if (m.role === 'tool') return `tool result: ${clip(messageText(m))}`;
  const calls = (m.tool_calls ?? []).map((c) => `called ${c.function.name}`);
  const text = clip(messageText(m));
  return `${m.role}: ${[text, ...calls].filter(Boolean).join('; ')}`;
}

/** The summary of a conversation: one clipped line per message, earlier compactions kept whole. */
export function summarize(messages: readonly ChatMessage[]): string {
  return messages.map(line).join('\n');
}

/** The system message a compaction becomes when it is used as input. */
export function compactionMessage(payload: CompactionPayload): ChatMessage {
  return {
    role: 'system',
    name: COMPACTION_NAME,
    content: `Compacted context (${payload.dropped} earlier messages):\n${payload.summary}`,
  };
}
