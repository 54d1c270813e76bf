import { describe, expect, it } from 'vitest';
import { errorAfterMessage, FaultBook, parseFault } from '../../../../main/sandbox/faults';
import { SandboxError } from '../../../../main/sandbox/errors';
import { parseSse, readToEnd, useHarness } from './harness';

const h = useHarness();

const fault = (value: string) => ({ 'x-sandbox-fault': value });

describe('sandbox/faults', () => {
  describe('parseFault()', () => {
    it('reads name=number pairs', () => {
      expect(parseFault('status=429; retry-after=2;times=1')).toEqual({ status: 429, retryAfter: 2, times: 1 });
      expect(parseFault('drop-after=5,delay=10')).toEqual({ dropAfter: 5, delay: 10 });
    });

    it('refuses unknown names, missing numbers and non-error statuses with a 400 that says the syntax', () => {
      for (const bad of ['explode=1', 'status', 'delay=soon', 'status=200']) {
        expect(() => parseFault(bad)).toThrow(SandboxError);
      }
      expect(() => parseFault('explode=1')).toThrow(/Use name=number pairs/);
    });

    it('reads error-after and refuses a fraction, a negative or a word with a 400 that says what to write', () => {
      expect(parseFault('error-after=4;times=1')).toEqual({ errorAfter: 4, times: 1 });
      expect(parseFault('error-after=0')).toEqual({ errorAfter: 0 });
      for (const bad of ['error-after=1.5', 'error-after=-1', 'error-after=soon', 'error-after']) {
        expect(() => parseFault(bad)).toThrow(SandboxError);
      }
      expect(() => parseFault('error-after=1.5')).toThrow(/error-after must be a whole number .* like error-after=4/);
      expect(() => parseFault('error-after=-1')).toThrow(/cannot read "error-after=-1"/);
    });
  });

  describe('errorAfterMessage()', () => {
    it('names the event count and the fault that caused the error', () => {
      expect(errorAfterMessage(7)).toBe('The sandbox injected an overload after 7 events (x-sandbox-fault: error-after)');
    });
  });

  describe('FaultBook', () => {
    it('applies a times=N fault to the first N requests with the same key only', () => {
      const book = new FaultBook();
      const f = { status: 503, times: 2 };
      expect([book.applies(f, 'a'), book.applies(f, 'a'), book.applies(f, 'a'), book.applies(f, 'b')]).toEqual([true, true, false, true]);
      expect(book.applies({ status: 503 }, 'a')).toBe(true);
    });
  });

  describe('x-sandbox-fault over HTTP', () => {
    it('answers 429 with Retry-After and retry-after-ms', async () => {
      const res = await h.chat({}, fault('status=429;retry-after=2'));
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('2');
      expect(res.headers.get('retry-after-ms')).toBe('2000');
      expect(await res.json()).toEqual({
        code: 'Some resource has been exhausted',
        error: expect.stringContaining('rate limit'),
      });
    });

    it('answers 503 and 500 with the native body', async () => {
      expect((await h.chat({}, fault('status=503'))).status).toBe(503);
      const res = await h.get('/v1/models', fault('status=500'));
      expect(res.status).toBe(500);
      expect(((await res.json()) as { code: string }).code).toBe('Internal error');
    });

    it('fails only the first request with times=1, so a retry succeeds', async () => {
      const body = { messages: [{ role: 'user', content: 'retry me' }] };
      expect((await h.chat(body, fault('status=503;times=1'))).status).toBe(503);
      expect((await h.chat(body, fault('status=503;times=1'))).status).toBe(200);
      // A different body is a different request: it gets its own first failure.
      expect((await h.chat({ ...body, seed: 1 }, fault('status=503;times=1'))).status).toBe(503);
    });

    it('waits before answering with delay, so a later request without it answers first', async () => {
      const order: string[] = [];
      const slow = h.get('/v1/models', fault('delay=300')).then((res) => order.push(`slow ${res.status}`));
      const fast = h.get('/v1/models').then((res) => order.push(`fast ${res.status}`));
      await Promise.all([slow, fast]);
      expect(order).toEqual(['fast 200', 'slow 200']);
    });

    it('drops a stream after N frames without [DONE]', async () => {
      const res = await h.chat({ stream: true }, fault('drop-after=5'));
      expect(res.status).toBe(200);
      const { outcome, text } = await readToEnd(res);
      expect(outcome).toBe('reset');
      expect(parseSse(text.slice(0, text.lastIndexOf('\n\n') + 2))).toHaveLength(5);
      expect(text).not.toContain('[DONE]');
    });

    it('drops a non-streamed request before answering', async () => {
      await expect(h.chat({}, fault('drop-after=0'))).rejects.toThrow();
    });

    it('sends a malformed JSON frame after N frames', async () => {
      const text = await (await h.chat({ stream: true, max_completion_tokens: 10 }, fault('malformed-after=3'))).text();
      const frames = parseSse(text);
      expect(frames.slice(0, 3).every((f) => JSON.parse(f.data))).toBeTruthy();
      expect(() => JSON.parse(frames[3].data)).toThrow();
      expect(frames.at(-1)!.data).toBe('[DONE]');
    });

    it('refuses a fractional error-after with 400 naming it', async () => {
      const res = await h.chat({ stream: true }, fault('error-after=2.5'));
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toContain('error-after must be a whole number');
    });

    it('refuses an unreadable fault header with 400', async () => {
      const res = await h.get('/v1/models', fault('boom'));
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toContain('x-sandbox-fault');
    });
  });
});
