/**
 * A service error that arrives inside a stream (the sandbox's `error-after` fault sends each
 * interface's own error frame): every interface records the service's message, keeps the text
 * that had arrived, and History still has the run.
 */
import { describe, expect, it } from 'vitest';
import { choicesOf } from '../../../shared/text-output';
import { useHarness } from './harness';
import { deltaText, runText } from './text-run-helper';

const CTX = { sessionId: 'test', signal: new AbortController().signal };
const FAULT = { 'x-sandbox-fault': 'error-after=6' };

describe('a service error mid-stream', () => {
  const h = useHarness();

  const cases = [
    {
      name: 'chat',
      handler: () => h.app.handlers.chat.send,
      request: { model: 'svc-4', messages: [{ role: 'user', content: 'Tell me a long story about harbours' }], stream: true },
    },
    { name: 'responses', handler: () => h.app.handlers.responses.create, request: { model: 'svc-4', input: 'Tell me a long story about harbours', stream: true } },
    {
      name: 'messages',
      handler: () => h.app.handlers.messages.send,
      request: { model: 'svc-4', max_tokens: 2000, messages: [{ role: 'user', content: 'Tell me a long story about harbours' }], stream: true },
    },
    {
      name: 'completions',
      handler: () => h.app.handlers.completions.send,
      request: { model: 'svc-4', prompt: 'Tell me a long story about harbours', max_tokens: 400, stream: true },
    },
  ];

  for (const c of cases) {
    it(`${c.name}: records the service's message, keeps the partial text and stays in History`, async () => {
      const { record, chunks } = await runText(c.handler() as never, { request: c.request, headers: FAULT });
      expect(record.status).not.toBe('completed');
      expect(record.error?.message).toContain('The sandbox injected an overload after 6 events');
      const streamed = deltaText(chunks);
      expect(streamed.length).toBeGreaterThan(0);
      expect(choicesOf(record.endpoint, record.output)[0]!.content).toBe(streamed);
      const stored = await h.app.handlers.history.get({ id: record.id }, CTX);
      expect(stored.error?.message).toBe(record.error?.message);
      expect(choicesOf(stored.endpoint, stored.output)[0]!.content).toBe(streamed);
    });
  }
});
