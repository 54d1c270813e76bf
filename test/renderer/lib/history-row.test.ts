import { describe, expect, it } from 'vitest';
import type { RunMediaFacts } from '@shared/contract/runs';
import type { ChatUsage } from '@shared/wire/chat';
import { formatBytes } from '@shared/byte-size';
import { runMetrics } from '@shared/run-metrics';
import { rowFigures, rowPrompt, runTitle } from '@/lib/history-row';
import type { Endpoint } from '@shared/contract/runs';

/** A finished run's summary fields the row reads; a media run records no tokens and only its first byte. */
function run(media: RunMediaFacts | null, over: { costTicks?: number | null; totalMs?: number } = {}) {
  const totalMs = over.totalMs ?? 4_200;
  const costTicks = 'costTicks' in over ? (over.costTicks ?? null) : 700_000_000;
  const endpoint = media ? (media.kind === 'video' ? 'videos.generations' : media.kind === 'file' ? 'files.upload' : 'images.generations') : 'chat.completions';
  const usage: ChatUsage | null = media
    ? null
    : {
        prompt_tokens: 12,
        completion_tokens: 40,
        total_tokens: 52,
        cost_in_usd_ticks: 700_000_000,
        num_sources_used: 0,
        prompt_tokens_details: { text_tokens: 12, audio_tokens: 0, image_tokens: 0, cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
      };
  const timings = { startedAt: 0, ttfbMs: 21, firstTokenMs: media ? null : 300, totalMs };
  return { metrics: runMetrics({ endpoint, timings, usage, costTicks }), totalMs, costTicks, made: media };
}

const shown = (r: ReturnType<typeof rowFigures>): string => `${r.made.main} | ${r.made.detail} | ${r.cost.main} | ${r.cost.detail}`;

describe('rowFigures', () => {
  it('shows images by count and size, never a first byte or token placeholders', () => {
    const r = rowFigures(run({ kind: 'images', count: 2, width: 1024, height: 768, duration: null, bytes: 2 * 1024 * 1024 }));
    expect(shown(r)).toBe(`2 images | 1024×768 · 4.20 s | $0.07 | ${formatBytes(2 * 1024 * 1024)}`);
    expect(shown(r)).not.toMatch(/byte \d|— → —|tok\/s/);
  });

  it('shows a video by duration and resolution, and an upload by its size', () => {
    expect(shown(rowFigures(run({ kind: 'video', count: 1, width: 1280, height: 720, duration: 8, bytes: 3_000_000 })))).toMatch(/^8 s \| 1280×720 · 4\.20 s \| /);
    expect(shown(rowFigures(run({ kind: 'file', count: 1, width: null, height: null, duration: null, bytes: 49_000_000 }, { costTicks: null })))).toBe(`${formatBytes(49_000_000)} | upload · 4.20 s | — | `);
  });

  it('says a media run that kept nothing so, and keeps speed and tokens for text runs', () => {
    expect(rowFigures(run({ kind: 'video', count: 0, width: null, height: null, duration: null, bytes: null })).made.main).toBe('no video yet');
    expect(shown(rowFigures(run(null)))).toMatch(/^[\d.]+ tok\/s \| first 300 ms · 4\.20 s \| \$0\.07 \| 12 → 40$/);
  });
});

describe('runTitle and rowPrompt', () => {
  const named = (endpoint: string, model: string, promptPreview: string) => ({ endpoint: endpoint as Endpoint, model, promptPreview });

  it('calls a transcription a transcription, not an upload, in the entry heading and the row', () => {
    const run = named('transcription.transcribe', '', 'two-voices.wav');
    expect(runTitle(run)).toBe('Transcription · two-voices.wav');
    expect(rowPrompt(run)).toBe('Transcription · two-voices.wav');
  });

  it('keeps "Upload:" for a file sent to Files, whose row shows the file name alone', () => {
    const run = named('files.upload', '', 'notes.pdf');
    expect(runTitle(run)).toBe('Upload: notes.pdf');
    expect(rowPrompt(run)).toBe('notes.pdf');
  });

  it('names a run with a model by its model and shows its prompt in the row', () => {
    const run = named('chat.completions', 'svc-chat-1', 'Name three rivers');
    expect(runTitle(run)).toBe('svc-chat-1');
    expect(rowPrompt(run)).toBe('Name three rivers');
    expect(rowPrompt(named('chat.completions', 'svc-chat-1', ''))).toBe('(empty prompt)');
  });
});
