/**
 * The app's own realtime client (main/api/realtime.ts) against the sandbox: a client secret minted
 * with createClientSecret, the socket opened with it as the subprotocol (the key goes nowhere),
 * every server event validated by the shared wire schemas (no `invalid`, no `unknown` types)
 * through a spoken turn; an expired secret refused with the sandbox's message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../../main/api/client';
import { createClientSecret, openRealtimeSocket } from '../../../../main/api/realtime';
import { startSandbox, type SandboxServer } from '../../../../main/sandbox/index';

const KEY = 'sk-rt-app-1';
let sb: SandboxServer;
let client: ApiClient;

beforeAll(async () => {
  sb = await startSandbox({ keys: [KEY], tokenDelayMs: 0, realtime: { audioLeadMs: Infinity } });
  client = new ApiClient({ baseUrl: sb.url, apiKey: KEY, sleep: async () => undefined });
});
afterAll(() => sb.close());

describe('main/api/realtime.ts against the sandbox', () => {
  it('mints a secret, connects with it, and every event of a spoken turn parses', async () => {
    const minted = await createClientSecret(client, { expires_after: { seconds: 120 }, session: { voice: 'sal', turn_detection: null } });
    if (!minted.ok) throw new Error(minted.error.message);
    const opened = await openRealtimeSocket(client, { auth: { kind: 'client_secret', secret: minted.value.value, via: 'protocol' }, query: { model: 'svc-voice-latest' } });
    if (!opened.ok) throw new Error(opened.error.message);
    const socket = opened.socket;
    const kinds: string[] = [];
    const types: string[] = [];
    const read = async (until: string) => {
      for (;;) {
        const e = await socket.next();
        if (!e) throw new Error(`closed before ${until}`);
        kinds.push(e.kind);
        if (e.kind === 'message') {
          types.push(e.message.type);
          if (e.message.type === until) return e.message;
        }
      }
    };
    const created = await read('session.created');
    expect(created).toMatchObject({ session: { voice: 'sal', turn_detection: null } });
    await socket.sendJson({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Say Nice to meet you.' }] } });
    await socket.sendJson({ type: 'response.create' });
    const done = await read('response.done');
    expect(done).toMatchObject({ response: { status: 'completed', output: [{ content: [{ transcript: 'Nice to meet you.' }] }] } });
    expect(new Set(kinds)).toEqual(new Set(['message']));
    expect(types).toContain('response.output_audio.delta');
    await socket.close();
  });

  it('an expired secret is refused with the sandbox\'s reason', async () => {
    const minted = await createClientSecret(client, { expires_after: { seconds: 5 } });
    if (!minted.ok) throw new Error(minted.error.message);
    const res = await fetch(`${sb.url}/sandbox/clock/advance`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ seconds: 6 }) });
    expect(res.status).toBe(200);
    const opened = await openRealtimeSocket(client, { auth: { kind: 'client_secret', secret: minted.value.value, via: 'header' } });
    expect(opened.ok).toBe(false);
    if (opened.ok) return;
    expect(opened.error.message).toContain('expired at');
    // The secret was refused, not the key: the advice says so instead of "check the key in Connections".
    expect(opened.error.message).toMatch(/^The WebSocket to .+ was refused\. The service refused the client secret \(401\): .*expired at .* start the call again and a new one is minted/);
    expect(opened.error.message).not.toContain('Check the key in Connections');
    expect(JSON.stringify(opened.captured)).not.toContain(minted.value.value);
    // With the key, a 401 (here a malformed one) keeps the key's advice.
    const wrong = new ApiClient({ baseUrl: sb.url, apiKey: 'not a key', sleep: async () => undefined });
    const keyed = await openRealtimeSocket(wrong);
    await wrong.dispose();
    expect(keyed.ok).toBe(false);
    if (!keyed.ok) expect(keyed.error.message).toContain('Check the key in Connections');
  });
});
