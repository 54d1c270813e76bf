import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../../main/api/client';
import type { CapturedFrame } from '../../../../main/api/event-socket';
import { apiErrorFromResponse, toWorkbenchError } from '../../../../main/api/errors';
import { createClientSecret, openRealtimeSocket, realtimeRefusal } from '../../../../main/api/realtime';
import { useLocalClient } from './local-client';
import { sendJson } from './local-server';
import { startWsServer } from './ws-server';

const KEY = 'sk-realtime-key-555';
const SECRET = 'ephemeral-secret-abcdef';

describe('api/realtime', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function service() {
    const srv = await startWsServer(
      (ws) => {
        // The service quotes the credential back (a worst case): it must not reach a capture or the consumer.
        ws.send(JSON.stringify({ type: 'session.created', session: { id: 'sess_1', model: 'svc-voice-latest', instructions: `token ${SECRET}` } }));
        ws.on('message', (d) => ws.send(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: `bad ${String(d)}` } })));
      },
      { handleProtocols: (protocols) => [...protocols].find((p) => p.startsWith('svc-client-secret.')) ?? false },
    );
    const client = new ApiClient({ baseUrl: srv.baseUrl, apiKey: KEY });
    cleanups.push(() => srv.close(), () => client.dispose());
    return { srv, client };
  }

  it('opens with a client secret in the subprotocol, sends no key, and masks the secret everywhere', async () => {
    const { srv, client } = await service();
    const frames: CapturedFrame[] = [];
    const opened = await openRealtimeSocket(client, { query: { model: 'svc-voice-latest' }, auth: { kind: 'client_secret', secret: SECRET, via: 'protocol' }, onFrame: (f) => frames.push(f) });
    if (!opened.ok) throw new Error(opened.error.message);
    cleanups.push(() => void opened.socket.terminate());
    expect(srv.upgrades[0]!.headers.authorization).toBeUndefined();
    expect(srv.upgrades[0]!.headers['sec-websocket-protocol']).toBe(`svc-client-secret.${SECRET}`);
    expect(srv.upgrades[0]!.url).toBe('/v1/realtime?model=svc-voice-latest');
    const created = await opened.socket.next();
    expect(created).toMatchObject({ kind: 'message', message: { type: 'session.created', session: { instructions: 'token ***' } } });
    await opened.socket.sendJson({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: `my secret is ${SECRET}` }] } });
    const error = await opened.socket.next();
    expect(error?.kind).toBe('message');
    const everything = JSON.stringify([frames, created, error, opened.captured]);
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain(KEY);
  });

  it('sends a client secret as the Bearer header when asked, and refuses one for a SIP call', async () => {
    const { srv, client } = await service();
    const opened = await openRealtimeSocket(client, { auth: { kind: 'client_secret', secret: SECRET, via: 'header' } });
    if (!opened.ok) throw new Error(opened.error.message);
    cleanups.push(() => void opened.socket.terminate());
    expect(srv.upgrades[0]!.headers.authorization).toBe(`Bearer ${SECRET}`);
    const sip = await openRealtimeSocket(client, { query: { call_id: 'call-1' }, auth: { kind: 'client_secret', secret: SECRET, via: 'protocol' } });
    expect(sip).toMatchObject({ ok: false, error: { kind: 'invalid_request', message: 'A SIP call (call_id) can only be joined with the API key, not a client secret.' } });
    expect(srv.upgrades).toHaveLength(1);
    const withKey = await openRealtimeSocket(client, { query: { call_id: 'call-1' } });
    if (!withKey.ok) throw new Error(withKey.error.message);
    cleanups.push(() => void withKey.socket.terminate());
    expect(srv.upgrades[1]).toMatchObject({ url: '/v1/realtime?call_id=call-1', headers: { authorization: `Bearer ${KEY}` } });
  });
});

describe('realtimeRefusal(): the advice for a refused /v1/realtime upgrade', () => {
  const refused = (status: number, error: string) => apiErrorFromResponse(status, {}, { code: 'x', error });
  const key = { secret: false, callId: false };

  it.each([
    [401, 'Missing Authorization header.', 'The service refused the API key (401): Missing Authorization header. Check the key in Connections.'],
    [400, 'Incorrect API key provided: sk***yz.', 'The service refused the API key (400): Incorrect API key provided: sk***yz. Check the key in Connections.'],
  ])('a refused key (%i) says the key was refused and sends the user to Connections', (status, error, message) => {
    const out = realtimeRefusal(refused(status, error), key);
    expect(out.message).toBe(message);
    expect(out.reason).toBe('key_refused');
  });

  it('a refused client secret is not the key: start again (a new secret is minted), not Connections', () => {
    const out = realtimeRefusal(refused(401, 'The client secret expired.'), { secret: true, callId: false });
    expect(out.reason).toBe('secret_refused');
    expect(toWorkbenchError(out).reason).toBe('secret_refused');
    const message = out.message;
    expect(message).toMatch(/^The service refused the client secret \(401\): The client secret expired\. A client secret is short-lived: start the call again/);
    expect(message).not.toContain('Connections');
  });

  it.each([
    [404, 'No live call c1', true, "Not found (404): No live call c1. The call has ended or its call_id is wrong: a call can be joined only while it rings or is connected.", undefined],
    [404, 'Unknown model svc-9', false, "Not found (404): Unknown model svc-9. Check the call's model and the connection's base URL (the socket opens at <base URL>/v1/realtime).", undefined],
    [403, 'Joining a SIP call needs the API key', true, "The service denied access (403): Joining a SIP call needs the API key. Joining a SIP call needs the API key of the team that owns its number.", 'team_key_needed'],
    [403, 'Team out of credits', false, "The service denied access (403): Team out of credits. Check the key's team, permissions and credits.", undefined],
    [400, 'reasoning.effort must be "high" or "none"', false, 'The service rejected the request (400): reasoning.effort must be "high" or "none". Check the call\'s settings sent when the socket opens (model, reasoning effort).', undefined],
  ])('a %i (%s) gets its own advice, never the key\'s', (status, error, callId, message, reason) => {
    const out = realtimeRefusal(refused(status, error), { secret: false, callId });
    expect(out.message).toBe(message);
    expect(out.status).toBe(status);
    expect(out.reason).toBe(reason);
  });

  it('leaves what is not an HTTP refusal alone', () => {
    const e = { kind: 'network' as const, status: null, code: 'ECONNREFUSED', message: 'Could not connect.', requestId: null };
    expect(realtimeRefusal(e, key)).toBe(e);
  });
});

describe('api/realtime client secrets', () => {
  const setup = useLocalClient();

  it('mints a secret (either answer shape) and refuses a lifetime over an hour', async () => {
    const { client, server } = await setup((_req, res, n) => sendJson(res, 200, n === 0 ? { value: 'cs_1', expires_at: 1750000300 } : { client_secret: { value: 'cs_2', expires_at: 9 } }));
    expect(await createClientSecret(client, { expires_after: { seconds: 300 }, session: { model: 'svc-voice-latest' } })).toMatchObject({ ok: true, value: { value: 'cs_1', expires_at: 1750000300 } });
    expect(JSON.parse(server.received[0]!.body)).toEqual({ expires_after: { seconds: 300 }, session: { model: 'svc-voice-latest' } });
    expect(await createClientSecret(client)).toMatchObject({ ok: true, value: { value: 'cs_2' } });
    expect(await createClientSecret(client, { expires_after: { seconds: 3601 } })).toMatchObject({ ok: false, error: { kind: 'invalid_request', message: 'A client secret lives 1 to 3600 seconds (got 3601).' } });
    expect(server.received).toHaveLength(2);
  });
});
