/**
 * What a Messages reply says, decided before anything is sent so plain and streamed replies are
 * identical: a thinking block first on the reasoning model, then either tool_use blocks or one
 * text block. The chat planner generates (same seeding, same "Say X" echoes, same tool rules);
 * this module applies Anthropic's accounting: `max_tokens` caps all output tokens, thinking
 * included, and a stop sequence ends the text and is reported.
 */
import { createHash } from 'node:crypto';
import type { MessagesRequest, MessagesStopReason } from '../../../shared/wire/messages';
import type { LanguageEntry } from '../catalogue';
import { planChoices, requestSeed } from '../chat/plan';
import { hashSeed } from '../generate/rng';
import { countTokens } from '../generate/tokenizer';
import { cutText } from './cut';
import { toChatRequest } from './to-chat';

export type PlannedBlock =
  | { type: 'thinking'; tokens: string[]; signature: string }
  | { type: 'text'; tokens: string[] }
  | { type: 'tool_use'; id: string; name: string; arguments: string };

export interface MessagesPlan {
  blocks: PlannedBlock[];
  stopReason: MessagesStopReason;
  stopSequence: string | null;
  outputTokens: number;
}

/** Tokens a tool call costs: name, arguments and a little framing (as chat counts them). */
export function toolUseTokens(name: string, args: string): number {
  return countTokens(name) + countTokens(args) + 3;
}

/** An opaque, stable signature for a thinking block. */
function signatureOf(thinking: string): string {
  return createHash('sha256').update(`sandbox-thinking\u0000${thinking}`).digest('base64');
}

/** Plans the single reply of a (validated) Messages request. */
export function planMessage(req: MessagesRequest, model: LanguageEntry): MessagesPlan {
  const chatReq = toChatRequest(req, model.id);
  const [choice] = planChoices(chatReq, model);
  const seed = requestSeed(chatReq, model);
  const blocks: PlannedBlock[] = [];
  let budget = req.max_tokens;
  if (choice.reasoningTokens.length > 0) {
    const tokens = choice.reasoningTokens.slice(0, budget);
    blocks.push({ type: 'thinking', tokens, signature: signatureOf(tokens.join('')) });
    budget -= tokens.length;
    if (tokens.length < choice.reasoningTokens.length) {
      return { blocks, stopReason: 'max_tokens', stopSequence: null, outputTokens: req.max_tokens };
    }
  }
  if (choice.toolCalls.length > 0) {
    let used = req.max_tokens - budget;
    for (const call of choice.toolCalls) {
      const cost = toolUseTokens(call.name, call.arguments);
      // A call that does not fit is never half-sent: the reply ends at the budget without it.
      if (used + cost > req.max_tokens) {
        if (blocks.length === 0) blocks.push({ type: 'text', tokens: [] });
        return { blocks, stopReason: 'max_tokens', stopSequence: null, outputTokens: req.max_tokens };
      }
      const id = `toolu_01${hashSeed(String(seed), call.id).toString(16).padStart(8, '0')}${call.id.replace(/\D/g, '')}`;
      blocks.push({ type: 'tool_use', id, name: call.name, arguments: call.arguments });
      used += cost;
    }
    return { blocks, stopReason: 'tool_use', stopSequence: null, outputTokens: used };
  }
  const cut = cutText(choice.contentTokens.join(''), req.stop_sequences ?? [], budget);
  if (cut.tokens.length > 0 || blocks.length === 0) blocks.push({ type: 'text', tokens: cut.tokens });
  const stopReason: MessagesStopReason = cut.reason === 'stop' ? 'stop_sequence' : cut.reason === 'length' ? 'max_tokens' : 'end_turn';
  return { blocks, stopReason, stopSequence: cut.stopSequence, outputTokens: req.max_tokens - budget + cut.tokens.length };
}
