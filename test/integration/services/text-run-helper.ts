/**
 * Runs a stream handler (chat.send, responses.create, messages.send, completions.send/complete)
 * the way the host would, collecting its chunks; `abortAfterDeltas` cancels after that many deltas.
 */
import type { StreamContext } from '../../../main/host/handlers';
import type { RunRecord } from '../../../shared/contract/runs';
import type { TextStreamChunk } from '../../../shared/contract/text';

type StreamHandler<I, C> = (input: I, ctx: StreamContext<C>) => Promise<RunRecord>;

export async function runText<I, C extends { type: string } = TextStreamChunk>(
  handler: StreamHandler<I, C>,
  input: unknown,
  options: { abortAfterDeltas?: number } = {},
): Promise<{ record: RunRecord; chunks: C[] }> {
  const controller = new AbortController();
  const chunks: C[] = [];
  let deltas = 0;
  const record = await handler(input as I, {
    sessionId: 'test',
    streamId: 'text-stream',
    signal: controller.signal,
    emit: (chunk) => {
      chunks.push(chunk);
      if (chunk.type === 'delta' && ++deltas === options.abortAfterDeltas) controller.abort();
    },
  });
  return { record, chunks };
}

/** Text of one field of a choice as the renderer would assemble it from deltas. */
export function deltaText(chunks: TextStreamChunk[], field: 'content' | 'reasoning' = 'content', choice = 0): string {
  return chunks
    .filter((c): c is Extract<TextStreamChunk, { type: 'delta' }> => c.type === 'delta' && c.choice === choice)
    .map((c) => c[field] ?? '')
    .join('');
}

/** Every meta chunk merged (later values win), as the renderer keeps it. */
export function mergedMeta(chunks: TextStreamChunk[]): Record<string, unknown> {
  return Object.assign({}, ...chunks.filter((c) => c.type === 'meta').map((c) => (c as { meta: object }).meta));
}
