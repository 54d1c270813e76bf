import { describe, expect, it } from 'vitest';
import type { CompleteResponse } from '../../../../../shared/wire/completions';
import { endpoint, useHarness } from '../harness';

const h = useHarness();

const base = { model: 'svc-4', prompt: '\n\nHuman: Tell me about owls\n\nAssistant:', max_tokens_to_sample: 500 };

const { answer: complete, errorOf } = endpoint<CompleteResponse>(h, '/v1/complete', base);

describe('sandbox/routes/completions (/v1/complete)', () => {
  it('answers {type: "completion", id, completion, model, stop_reason: "end_turn"}', async () => {
    const c = await complete({});
    expect(Object.keys(c).sort()).toEqual(['completion', 'id', 'model', 'stop_reason', 'type']);
    expect(c).toMatchObject({ type: 'completion', model: 'svc-4', stop_reason: 'end_turn' });
    expect(c.completion).toMatch(/synthetic/i);
    expect(c.completion).toContain('owls');
  });

  it('answers the last Human turn of a transcript, and a plain prompt the same way', async () => {
    const transcript = await complete({ prompt: '\n\nHuman: Say "first"\n\nAssistant: first\n\nHuman: Say "second"\n\nAssistant:' });
    expect(transcript.completion).toBe('second');
    const plainPrompt = await complete({ prompt: 'Say "plain works"' });
    expect(plainPrompt.completion).toBe('plain works');
  });

  it('ends before a stop sequence with stop_reason stop_sequence', async () => {
    const c = await complete({ prompt: '\n\nHuman: Say "up and away"\n\nAssistant:', stop_sequences: [' and'] });
    expect(c).toMatchObject({ completion: 'up', stop_reason: 'stop_sequence' });
  });

  it('ends at max_tokens_to_sample with stop_reason length', async () => {
    const c = await complete({ max_tokens_to_sample: 3 });
    expect(c.stop_reason).toBe('length');
    expect((await complete({})).completion.startsWith(c.completion)).toBe(true);
  });

  it('accepts top_k, top_p, temperature and metadata', async () => {
    const c = await complete({ top_k: 10, top_p: 0.5, temperature: 0.3, metadata: { user_id: 'u' } });
    expect(c.stop_reason).toBe('end_turn');
  });

  it('refuses stream: true with a 400 that says streaming is not supported', async () => {
    expect(await errorOf({ stream: true })).toEqual({
      status: 400,
      error: 'streaming is not supported on /v1/complete; send stream: false, or use /v1/messages with stream: true',
    });
  });

  it('refuses the reasoning model, unknown models and bad bodies with clear errors', async () => {
    expect(await errorOf({ model: 'svc-3-mini' })).toEqual({
      status: 400,
      error: 'svc-3-mini is a reasoning model and does not support /v1/complete; use /v1/chat/completions or /v1/responses',
    });
    expect(await errorOf({ model: 'nope' })).toEqual({ status: 404, error: 'The model nope does not exist or your team does not have access to it.' });
    expect(await errorOf({ max_tokens_to_sample: undefined })).toEqual({
      status: 422,
      error: 'max_tokens_to_sample is required: the most tokens the completion may have',
    });
    expect(await errorOf({ stop_sequences: ['1', '2', '3', '4', '5'] })).toEqual({ status: 400, error: 'stop_sequences must have at most 4 sequences (got 5)' });
  });
});
