/**
 * `/v1/complete` (Anthropic legacy): reading the `"\n\nHuman: …\n\nAssistant:"` transcript (a
 * plain prompt is taken as one human turn) into chat turns, and planning the completion: cut
 * before the first stop sequence (`stop_sequence`), at `max_tokens_to_sample` (`length`), or
 * ended on its own (`end_turn`).
 */
import type { ChatMessage } from '../../../shared/wire/chat';
import type { CompleteRequest, CompleteStopReason } from '../../../shared/wire/completions';
import type { LanguageEntry } from '../catalogue';
import { planChoices } from '../chat/plan';
import { cutText } from '../messages/cut';

const TURN = /\n\n(Human|Assistant):/g;

/** The transcript's turns; text before the first marker, or a prompt without markers, is a human turn. */
export function parseTranscript(prompt: string): ChatMessage[] {
  const marks = [...prompt.matchAll(TURN)];
  if (marks.length === 0) return [{ role: 'user', content: prompt.trim() }];
  const out: ChatMessage[] = [];
  const lead = prompt.slice(0, marks[0].index).trim();
  if (lead) out.push({ role: 'user', content: lead });
  marks.forEach((m, i) => {
    const start = (m.index ?? 0) + m[0].length;
    const end = i + 1 < marks.length ? marks[i + 1].index : prompt.length;
    const text = prompt.slice(start, end).trim();
    // The trailing empty "Assistant:" is where the completion goes, not a turn.
    if (text) out.push({ role: m[1] === 'Human' ? 'user' : 'assistant', content: text });
  });
  return out.length > 0 ? out : [{ role: 'user', content: prompt.trim() }];
}

export interface CompletePlan {
  completion: string;
  tokens: number;
  stopReason: CompleteStopReason;
}

/** Plans the completion of a (validated) request. */
export function planComplete(req: CompleteRequest, model: LanguageEntry): CompletePlan {
  const messages = parseTranscript(req.prompt);
  const [choice] = planChoices(
    {
      model: model.id,
      messages,
      ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
      ...(req.top_p !== undefined ? { top_p: req.top_p } : {}),
    },
    model,
  );
  const cut = cutText(choice.contentTokens.join(''), req.stop_sequences ?? [], req.max_tokens_to_sample);
  const stopReason: CompleteStopReason = cut.reason === 'stop' ? 'stop_sequence' : cut.reason === 'length' ? 'length' : 'end_turn';
  return { completion: cut.text, tokens: cut.tokens.length, stopReason };
}
