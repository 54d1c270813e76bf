/**
 * A refused /v1/realtime upgrade through the realtime live kind, against the embedded sandbox: the
 * start is refused with a WorkbenchError whose advice fits the refusal. A wrong key (the sandbox,
 * as wire-notes §7 documents, answers 400 "Incorrect API key provided") reads as the key refused
 * and sends the user to Connections, as a REST 401 does; an unknown call_id (404) says the call
 * ended or the id is wrong. The key never appears in the error. Values only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkbenchFailure, type WorkbenchError } from '../../../shared/contract/errors';
import { startLiveApp } from './harness';

const CTX = { sessionId: 'test', signal: new AbortController().signal };
let env: Awaited<ReturnType<typeof startLiveApp>>;

beforeAll(async () => {
  env = await startLiveApp();
}, 60_000);
afterAll(() => env?.close());

async function refusal(input: Record<string, unknown>): Promise<WorkbenchError> {
  try {
    await env.app.live.start('realtime', { microphone: { kind: 'none' }, output: { kind: 'none' }, ...input }, { origin: 'window' });
  } catch (error) {
    if (error instanceof WorkbenchFailure) return error.error;
    throw error;
  }
  throw new Error('the call started');
}

describe('a refused realtime socket (sandbox)', () => {
  it("a wrong key: said as the key refused (the service's 400), with Connections as the fix", async () => {
    const { sandbox } = await env.app.handlers.connections.list({}, CTX);
    const wrongKey = 'sk-wrong-key-fedcba9876543210';
    const profile = await env.app.handlers.connections.save({ name: 'Wrong key', baseUrl: `http://127.0.0.1:${sandbox.port}`, apiKey: wrongKey }, CTX);
    const error = await refusal({ connectionId: profile.id });
    expect(error).toMatchObject({ code: 'api_error', status: 400, reason: 'key_refused' });
    expect(error.message).toMatch(/^The WebSocket to 127\.0\.0\.1:\d+ was refused\. The service refused the API key \(400\): Incorrect API key provided: sk\*\*\*10\. .* Check the key in Connections\.$/);
    expect(error.message).not.toContain('rejected the request');
    expect(JSON.stringify(error)).not.toContain(wrongKey);
  }, 60_000);

  it('an unknown call_id (404): the call has ended or its id is wrong, not "check the model id"', async () => {
    const error = await refusal({ callId: 'rtc_no_such_call' });
    expect(error).toMatchObject({ code: 'api_error', status: 404 });
    expect(error.reason).toBeUndefined();
    expect(error.message).toMatch(/No live call rtc_no_such_call.* The call has ended or its call_id is wrong: a call can be joined only while it rings or is connected\.$/);
    expect(error.message).not.toMatch(/Check the model id|Connections/);
  }, 60_000);
});
