/**
 * Token usage of a realtime response (wire-notes §2.3 `response.done` usage buckets): text tokens
 * by the sandbox's tokenizer (~4 characters a token), audio tokens by length — input audio 10 a
 * second (one per 100 ms), output audio 20 a second (one per 50 ms), the rates the copied format
 * uses. The input is the instructions and the whole conversation before the response; what the
 * previous response already read is reported as cached (the conversation's prefix).
 */
import { countTokens } from '../generate/tokenizer';
import type { ConversationItem } from './conversation';

export interface Usage {
  total_tokens: number;
  input_tokens: number;
  output_tokens: number;
  input_token_details: { text_tokens: number; audio_tokens: number; cached_tokens: number; cached_tokens_details: { text_tokens: number; audio_tokens: number } };
  output_token_details: { text_tokens: number; audio_tokens: number };
}

function itemText(item: ConversationItem): string {
  if (item.type === 'function_call') return `${item.name ?? ''} ${item.arguments ?? ''}`;
  if (item.type === 'function_call_output') return item.output ?? '';
  return (item.content ?? []).map((p) => p.text ?? p.transcript ?? '').join(' ');
}

function itemAudioTokens(item: ConversationItem): number {
  if (item.audio) return Math.ceil(item.audio.ms / 100);
  if (item.spoken) return Math.ceil(item.spoken.totalMs / 50);
  return 0;
}

export function responseUsage(r: { inputItems: readonly ConversationItem[]; instructions: string; outputText: string; audioMs: number; cachedTokens: number }): Usage {
  const text = countTokens(r.instructions) + r.inputItems.reduce((n, i) => n + countTokens(itemText(i)), 0);
  const audio = r.inputItems.reduce((n, i) => n + itemAudioTokens(i), 0);
  const outText = countTokens(r.outputText);
  const outAudio = Math.ceil(r.audioMs / 50);
  const input = text + audio;
  const cached = Math.min(r.cachedTokens, input);
  const cachedText = Math.min(cached, text);
  return {
    total_tokens: input + outText + outAudio,
    input_tokens: input,
    output_tokens: outText + outAudio,
    input_token_details: { text_tokens: text, audio_tokens: audio, cached_tokens: cached, cached_tokens_details: { text_tokens: cachedText, audio_tokens: cached - cachedText } },
    output_token_details: { text_tokens: outText, audio_tokens: outAudio },
  };
}
