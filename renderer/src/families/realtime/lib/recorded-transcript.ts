/**
 * A recorded call's transcript from its run's output (pure). Main keeps the call's transcript
 * entries with the run (`transcript`: `{ role, text, status? }` each); a run recorded without one
 * reads as null, an output of another shape too.
 */
export interface RecordedLine {
  role: 'user' | 'assistant';
  text: string;
  status: string | null;
}

export function recordedTranscript(output: unknown): RecordedLine[] | null {
  if (!output || typeof output !== 'object') return null;
  const list = (output as { transcript?: unknown }).transcript;
  if (!Array.isArray(list)) return null;
  const out: RecordedLine[] = [];
  for (const e of list) {
    if (!e || typeof e !== 'object') continue;
    const { role, text, status } = e as Record<string, unknown>;
    if ((role !== 'user' && role !== 'assistant') || typeof text !== 'string' || !text.trim()) continue;
    out.push({ role, text: text.trim(), status: typeof status === 'string' ? status : null });
  }
  return out;
}
