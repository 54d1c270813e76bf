import type { ChatCompletion } from '../../../shared/wire/chat';
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { openDatabase } from '../../../main/store/db';
import { recordedEvents, startHarness, streamedText, useHarness } from './harness';

const MODEL = 'svc-4';
const CTX = { sessionId: 'test', signal: new AbortController().signal };
const ask = (text: string, extra: Record<string, unknown> = {}) => ({
  request: { model: MODEL, messages: [{ role: 'user' as const, content: text }], stream: true, stream_options: { include_usage: true }, ...extra },
});

describe('ChatService against the sandbox', () => {
  const h = useHarness();

  describe('send() streaming', () => {
    it('records a completed run with the streamed text, every SSE event, usage and cost', async () => {
      const { record, chunks } = await h.send({ ...ask('Tell me about otters'), headers: { 'x-svc-conv-id': 'conv-1', 'x-api-token': 'tok-secret-42' } });
      expect(record.status).toBe('completed');
      expect(record.error).toBeNull();
      const text = streamedText(chunks);
      expect(text.length).toBeGreaterThan(20);
      expect((record.output as ChatCompletion | null)?.choices[0].message.content).toBe(text);
      const events = await recordedEvents(h.app, record.id);
      expect(record.eventCount).toBe(events.length);
      expect(events.at(-1)?.data).toBe('[DONE]');
      expect(record.usage?.total_tokens).toBeGreaterThan(0);
      expect(record.costTicks).toBe(record.usage?.cost_in_usd_ticks);
      expect(record.costTicks).toBeGreaterThan(0);
      expect(record.timings.ttfbMs).not.toBeNull();
      expect(record.isSandbox).toBe(true);
      expect(JSON.stringify(record)).not.toMatch(/sk-sandbox-|tok-secret-42/);
      // The recorded request is the one the client sent: resolved URL, extra headers, secrets redacted.
      expect(record.request.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions$/);
      expect(record.request.headers).toMatchObject({ authorization: 'Bearer ***', 'x-svc-conv-id': 'conv-1', 'x-api-token': '***', accept: 'text/event-stream' });
      const page = h.app.handlers.history.search({ query: 'otters', limit: 50 }, CTX) as { items: Array<{ id: string }> };
      expect(page.items.map((i) => i.id)).toContain(record.id);
    });

    it('records when the first token came, and the run metrics computed from it', async () => {
      const { record } = await h.send(ask('Tell me about herons'));
      expect(record.status).toBe('completed');
      const { ttfbMs, firstTokenMs, totalMs } = record.timings;
      expect(firstTokenMs).not.toBeNull();
      expect(firstTokenMs!).toBeGreaterThanOrEqual(ttfbMs!);
      expect(firstTokenMs!).toBeLessThanOrEqual(totalMs!);
      expect(record.metrics).toMatchObject({ firstTokenMs, firstTokenIsFirstByte: false, totalMs, outputTokens: record.usage!.completion_tokens });
      expect(record.metrics.tokensPerSecond).toBeGreaterThan(0);
      const page = h.app.handlers.history.search({ query: 'herons', limit: 50 }, CTX) as { items: Array<{ id: string; metrics: unknown }> };
      expect(page.items.find((i) => i.id === record.id)?.metrics).toEqual(record.metrics);
    });

    it('records an inline image as a blob reference, shows it on History by URL (no base64), gives the bytes back for a re-run, releases it when the run is deleted', async () => {
      const image = `data:image/png;base64,${Buffer.alloc(20_000, 7).toString('base64')}`;
      const messages = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'Describe this picture of otters' }, { type: 'image_url' as const, image_url: { url: image } }] }];
      const { record } = await h.send({ request: { model: MODEL, messages, stream: true } });
      // What the run showed is what was sent, bytes included.
      expect((record.request.body as { messages: unknown }).messages).toEqual(messages);
      const db = openDatabase(join(h.dataDir, 'workbench.db'));
      try {
        const row = db.prepare<[string], string>('SELECT request_json FROM runs WHERE id = ?').pluck().get(record.id)!;
        expect(row.length).toBeLessThan(2_000);
        const [hash] = [...row.matchAll(/"\$blob":"([0-9a-f]{64})"/g)].map((m) => m[1]);
        expect(db.prepare('SELECT mime, size, refs FROM blobs WHERE hash = ?').get(hash)).toEqual({ mime: 'image/png', size: 20_000, refs: 1 });
        // Opening the entry: what crosses the bridge holds the reference and a URL for it, never the base64.
        const opened = await h.app.handlers.history.get({ id: record.id }, CTX);
        const payload = JSON.stringify(opened);
        expect(payload).not.toContain(image.slice(22, 600));
        expect(payload).not.toMatch(/data:image\/[a-z]+;base64,/);
        expect(payload.length).toBeLessThan(8_000);
        expect((opened.request.body as { messages: Array<{ content: unknown[] }> }).messages[0]!.content[1]).toEqual({
          type: 'image_url',
          image_url: { url: { $blob: hash, mime: 'image/png', encoding: 'data-url' } },
        });
        expect(opened.media?.[hash!]).toMatchObject({ url: expect.stringContaining(hash!), mime: 'image/png', size: 20_000 });
        // A re-run asks for the request as sent: the bytes are back.
        const sent = await h.app.handlers.history.request({ id: record.id }, CTX);
        expect((sent.body as { messages: unknown }).messages).toEqual(messages);
        await h.app.handlers.history.remove({ id: record.id }, CTX);
        expect(db.prepare('SELECT refs FROM blobs WHERE hash = ?').pluck().get(hash)).toBe(0);
      } finally {
        db.close();
      }
    });

    it('keeps a secret-looking header of a deferred run only until the service has accepted it', async () => {
      const { record } = await h.send({ request: { model: MODEL, messages: [{ role: 'user', content: 'Deferred, with a header' }], deferred: true }, headers: { 'x-upstream-token': 'tok-deferred-77', 'x-trace': 't-9' } });
      expect(record.status).toBe('completed');
      const db = openDatabase(join(h.dataDir, 'workbench.db'));
      try {
        const data = db.prepare<[string], string>('SELECT data_json FROM jobs WHERE run_id = ?').pluck().get(record.id)!;
        expect(JSON.parse(data).headers).toEqual({ 'x-upstream-token': '***', 'x-trace': 't-9' });
        expect(JSON.stringify(record)).not.toContain('tok-deferred-77');
      } finally {
        db.close();
      }
    });

    it('records the image of a deferred run as a blob reference too, and the job request (bytes inline) completes', async () => {
      const image = `data:image/png;base64,${Buffer.alloc(12_000, 9).toString('base64')}`;
      const messages = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'Describe this deferred picture of herons' }, { type: 'image_url' as const, image_url: { url: image } }] }];
      const { record } = await h.send({ request: { model: MODEL, messages, deferred: true } });
      expect(record.status).toBe('completed');
      const db = openDatabase(join(h.dataDir, 'workbench.db'));
      try {
        const row = db.prepare<[string], string>('SELECT request_json FROM runs WHERE id = ?').pluck().get(record.id)!;
        expect(row.length).toBeLessThan(2_000);
        const [hash] = [...row.matchAll(/"\$blob":"([0-9a-f]{64})"/g)].map((m) => m[1]);
        expect(db.prepare('SELECT mime, size, refs FROM blobs WHERE hash = ?').get(hash)).toEqual({ mime: 'image/png', size: 12_000, refs: 1 });
        expect(JSON.stringify(await h.app.handlers.history.get({ id: record.id }, CTX))).not.toMatch(/base64,/);
        const sent = await h.app.handlers.history.request({ id: record.id }, CTX);
        expect((sent.body as { messages: unknown }).messages).toEqual(messages);
      } finally {
        db.close();
      }
    });

    it('keeps the partial output and marks the run incomplete when the stream is dropped', async () => {
      const { record, chunks } = await h.send({ ...ask('Tell me about rivers'), headers: { 'x-sandbox-fault': 'drop-after=5' } });
      expect(record.status).toBe('incomplete');
      expect(record.error?.code).toBe('stream_incomplete');
      expect(record.error?.message).toMatch(/ended|partial/i);
      const partial = streamedText(chunks);
      expect(partial.length).toBeGreaterThan(0);
      expect((record.output as ChatCompletion | null)?.choices[0].message.content).toBe(partial);
      expect(await h.app.handlers.history.get({ id: record.id }, CTX)).toMatchObject({ status: 'incomplete' });
    });

    it('marks a malformed chunk as a protocol error and keeps what came before', async () => {
      const { record, chunks } = await h.send({ ...ask('Tell me about lakes'), headers: { 'x-sandbox-fault': 'malformed-after=3' } });
      expect(record.error?.code).toBe('protocol');
      expect(['incomplete', 'error']).toContain(record.status);
      expect(streamedText(chunks).length).toBeGreaterThan(0);
    });

    it('retries a 503 once and completes, counting the retry', async () => {
      const { record, chunks } = await h.send({ ...ask('Tell me about hills'), headers: { 'x-sandbox-fault': 'status=503;times=1' } });
      expect(record.status).toBe('completed');
      expect(record.retries).toBe(1);
      expect(chunks.filter((c) => c.type === 'retry')).toHaveLength(1);
    });

    it('honours Retry-After on a 429 and completes', async () => {
      const { record, chunks } = await h.send({ ...ask('Tell me about clouds'), headers: { 'x-sandbox-fault': 'status=429;retry-after=1;times=1' } });
      expect(record.status).toBe('completed');
      expect(record.retries).toBe(1);
      const retry = chunks.find((c) => c.type === 'retry');
      expect(retry).toMatchObject({ type: 'retry', delayMs: 1000 });
    });

    it('gives up after two retries of a persistent 503 with the status and request id', async () => {
      const { record } = await h.send({ ...ask('Tell me about storms'), headers: { 'x-sandbox-fault': 'status=503' } });
      expect(record.status).toBe('error');
      expect(record.retries).toBe(2);
      expect(record.error).toMatchObject({ code: 'api_error', status: 503 });
      expect(record.error?.requestId).toBeTruthy();
      expect(record.response?.status).toBe(503);
    });

    it('ends as cancelled with the partial text when the caller stops', async () => {
      const slow = await startHarness({ tokenDelayMs: 5 });
      try {
        const { record, chunks } = await slow.send(ask('Write a long essay about mountains', { max_completion_tokens: 4000 }), { abortAfterDeltas: 3 });
        expect(record.status).toBe('cancelled');
        expect(record.error).toBeNull();
        expect(streamedText(chunks).length).toBeGreaterThan(0);
        expect((record.output as ChatCompletion | null)?.choices[0].message.content?.length).toBeGreaterThan(0);
        // Stop really cancels: the service saw the connection close and stopped generating.
        await expect.poll(() => slow.logs.join('\n')).toMatch(/stream stopped after \d+ of \d+ rounds: the connection closed/);
        // No usage chunk arrived: usage and cost are unknown, not zero.
        expect(record.usage).toBeNull();
        expect(record.costTicks).toBeNull();
      } finally {
        await slow.close();
      }
    });
  });

  describe('send() plain and deferred', () => {
    it('returns n choices in one plain completion', async () => {
      const { record, chunks } = await h.send(ask('Name a colour', { stream: false, n: 2 }));
      expect(record.status).toBe('completed');
      expect((record.output as ChatCompletion | null)?.choices).toHaveLength(2);
      expect(streamedText(chunks, 1)).toBe((record.output as ChatCompletion | null)?.choices[1].message.content);
    });

    it('polls a deferred completion while pending, then records it', async () => {
      const { record, chunks } = await h.send(ask('Summarise the weather', { stream: false, deferred: true }));
      expect(record.status).toBe('completed');
      expect(record.deferredRequestId).toBeTruthy();
      expect(chunks.some((c) => c.type === 'deferred')).toBe(true);
      expect((record.output as ChatCompletion | null)?.choices[0].message.content).toBeTruthy();
    });
  });

  describe('send() refusals', () => {
    it('explains an invalid parameter and records the run without sending it', async () => {
      const { record } = await h.send(ask('hi', { temperature: 5 }));
      expect(record.status).toBe('error');
      expect(record.error?.code).toBe('invalid_input');
      expect(record.error?.message).toContain('temperature must be between 0 and 2');
      expect(record.response).toBeNull();
    });

    it('reports a wrong key with the service message and keeps the key out of the record', async () => {
      const sandboxUrl = (h.app.handlers.connections.list(undefined, CTX) as { profiles: Array<{ baseUrl: string }> }).profiles[0].baseUrl;
      const profile = await h.app.handlers.connections.save({ name: 'Wrong key', baseUrl: sandboxUrl, apiKey: 'sk-wrong-key-123456' }, CTX);
      const { record } = await h.send({ ...ask('hello'), connectionId: profile.id });
      expect(record.status).toBe('error');
      expect(record.error?.code).toBe('api_error');
      expect(record.error?.status).toBe(400);
      expect(record.error?.message).toMatch(/API key/i);
      expect(JSON.stringify(record)).not.toContain('sk-wrong-key-123456');
    });
  });
});
