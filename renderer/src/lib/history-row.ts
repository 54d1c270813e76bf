/**
 * What a History row shows in its two figure columns. A text run: speed (tokens per second, the
 * first token's time, the total) and cost with tokens in → out. A media run has no tokens nor a
 * first token: images say how many and their size, a video its duration and resolution, an
 * upload the file's size, each with the run's total time.
 */
import type { RunMediaFacts, RunSummary } from '@shared/contract/runs';
import { formatBytes } from '@shared/byte-size';
import { entryShapeOf, familyById, familyOfEndpoint } from '@shared/families';
import { formatTicks } from '@shared/pricing';
import { formatTokensPerSecond } from '@shared/run-metrics';
import { formatCount, formatMs } from './format';

export interface RowFigure {
  main: string;
  detail: string;
  /** The same in words, for the tooltip. */
  title: string;
}

export interface RowFigures {
  /** First column: speed and time, or what the media run made. */
  made: RowFigure;
  /** Second column: cost, with tokens or bytes. */
  cost: RowFigure;
}

const pixels = (m: RunMediaFacts): string => (m.width && m.height ? `${m.width}×${m.height}` : '');
const joined = (...parts: string[]): string => parts.filter(Boolean).join(' · ');

function madeOf(m: RunMediaFacts, total: string): RowFigure {
  if (m.kind === 'file') {
    const size = m.bytes === null ? '—' : formatBytes(m.bytes);
    return { main: size, detail: `upload · ${total}`, title: `Uploaded ${size} in ${total}` };
  }
  if (m.kind === 'video') {
    if (m.count === 0) return { main: 'no video yet', detail: total, title: `No video kept · total ${total}` };
    const length = m.duration === null ? 'video' : `${Number(m.duration.toFixed(1))} s`;
    return { main: length, detail: joined(pixels(m), total), title: joined(`Video of ${length}`, pixels(m), `total ${total}`) };
  }
  const count = m.count === 0 ? 'no images' : `${m.count} image${m.count === 1 ? '' : 's'}`;
  return { main: count, detail: joined(pixels(m), total), title: joined(count, pixels(m), `total ${total}`) };
}

export function rowFigures(run: Pick<RunSummary, 'metrics' | 'totalMs' | 'costTicks' | 'made'>): RowFigures {
  const m = run.metrics;
  const cost = formatTicks(run.costTicks);
  if (run.made) {
    const total = formatMs(run.totalMs);
    const bytes = run.made.kind !== 'file' && run.made.bytes ? formatBytes(run.made.bytes) : '';
    return { made: madeOf(run.made, total), cost: { main: cost, detail: bytes, title: joined(`Cost ${cost}`, bytes && `${bytes} kept`) } };
  }
  const first = m.firstTokenIsFirstByte ? 'first byte (first token not recorded)' : 'first token';
  return {
    made: {
      main: formatTokensPerSecond(m.tokensPerSecond),
      detail: `${m.firstTokenIsFirstByte ? 'byte' : 'first'} ${formatMs(m.firstTokenMs)} · ${formatMs(run.totalMs)}`,
      title: `${formatTokensPerSecond(m.tokensPerSecond)} · ${first} after ${formatMs(m.firstTokenMs)} · total ${formatMs(m.totalMs)}`,
    },
    cost: {
      main: cost,
      detail: `${formatCount(m.inputTokens)} → ${formatCount(m.outputTokens)}`,
      title: `Tokens in ${formatCount(m.inputTokens)} · out ${formatCount(m.outputTokens)} · reasoning ${formatCount(m.reasoningTokens)}`,
    },
  };
}

/**
 * What names a run that has no model (a file upload, a transcription): a file sent to Files reads
 * "Upload: <name>", a run of another family "<its nav name> · <name>" (Transcription · two-voices.wav),
 * so History does not call a transcription an upload. Null for a run with a model (its model names it).
 */
export function modellessTitle(run: Pick<RunSummary, 'endpoint' | 'model' | 'promptPreview'>): string | null {
  if (run.model) return null;
  const family = familyOfEndpoint(run.endpoint);
  if (!family) return null;
  if (family === 'files' && entryShapeOf(run.endpoint) === 'upload') return `Upload: ${run.promptPreview}`;
  const label = familyById(family).nav?.label;
  if (!label) return null;
  return run.promptPreview ? `${label} · ${run.promptPreview}` : label;
}

/** The heading of a run's History entry: its model, else what {@link modellessTitle} calls it. */
export function runTitle(run: Pick<RunSummary, 'endpoint' | 'model' | 'promptPreview'>): string {
  return run.model || modellessTitle(run) || 'Run';
}

/**
 * The Prompt column of a row: what was sent, or for a model-less run of a family other than Files
 * (whose Endpoint column already says upload) what {@link modellessTitle} calls it.
 */
export function rowPrompt(run: Pick<RunSummary, 'endpoint' | 'model' | 'promptPreview'>): string {
  const title = familyOfEndpoint(run.endpoint) === 'files' ? null : modellessTitle(run);
  return title ?? (run.promptPreview || '(empty prompt)');
}
