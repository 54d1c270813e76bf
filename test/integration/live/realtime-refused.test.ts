/**
 * A refused /v1/realtime upgrade through the realtime live kind, against the embedded sandbox: the
 * start is refused with a WorkbenchError whose advice fits the refusal. A wrong key (the sandbox,
 * as wire-notes §7 documents, answers 400 "Incorrect API key provided") reads as the key refused
 * and sends the user to Connections, as a REST 401 does; an unknown call_id (404) says the call
 * ended or the id is wrong. The key never appears in the error. Values only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkbenchFailure, type WorkbenchError } from '../../../shared/contract/errors';
import { startRealtimeHarness, type RealtimeHarness } from './harness';

let rt: RealtimeHarness;

beforeAll(async () => {
  rt = await startRealtimeHarness();
}, 60_000);
afterAll(() => rt?.close());

async function refusal(input: Record<string, unknown>): Promise<WorkbenchError> {
  try {
    await rt.startCall(input);
  } catch (error) {
    if (error instanceof WorkbenchFailure) return error.error;
    throw error;
  }
  throw new Error('the call started');
}

describe('a refused realtime socket (sandbox)', () => {
  it("a wrong key: said as the key refused (the service's 400), with Connections as the fix", async () => {
    const wrongKey = 'sk-wrong-key-fedcba9876543210';
    const error = await refusal({ connectionId: await rt.profile('Wrong key', { apiKey: wrongKey }) });
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
