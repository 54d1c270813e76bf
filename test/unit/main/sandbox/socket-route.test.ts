import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createKeyRing } from '../../../../main/sandbox/auth';
import { createClock } from '../../../../main/sandbox/clock';
import { SandboxError } from '../../../../main/sandbox/errors';
import { FaultBook } from '../../../../main/sandbox/faults';
import { createSandboxHttpServer, type SandboxHttpServer } from '../../../../main/sandbox/server';
import { clientSecretFromProtocols, type SocketRoute } from '../../../../main/sandbox/socket-route';

const KEY = 'sk-socket-test-1';

/** Echo route: `?n=` must be a whole number; answers each message with `{team, n, got}`. */
const echo: SocketRoute<{ n: number }> = {
  path: '/v1/echo/:name',
  check(ctx) {
    const n = Number(ctx.query.get('n') ?? '1');
    if (!Number.isInteger(n)) throw new SandboxError(400, `n must be a whole number, got "${ctx.query.get('n')}".`);
    return { n };
  },
  open(ctx, checked) {
    ctx.ws.send(JSON.stringify({ type: 'hello', team: ctx.team, name: ctx.params.name, n: checked.n, protocol: ctx.protocol ?? null }));
    ctx.ws.on('message', (data) => ctx.ws.send(JSON.stringify({ type: 'echo', got: String(data) })));
  },
};

/** A realtime-style route: the API key, or a client secret offered as a subprotocol. */
const secretRoute: SocketRoute = {
  path: '/v1/secret',
  authenticate(input) {
    const offered = clientSecretFromProtocols(input.protocols);
    if (offered) {
      if (offered.secret !== 'good-secret') throw new SandboxError(401, 'The client secret is unknown or expired.');
      return { team: 'team-secret', protocol: offered.protocol };
    }
    return { team: input.keyRing.authenticate(input.authorization) };
  },
  open(ctx) {
    ctx.ws.send(JSON.stringify({ team: ctx.team, protocol: ctx.protocol ?? null }));
  },
};

let http: SandboxHttpServer;
let base: string;

beforeAll(async () => {
  http = createSandboxHttpServer({
    routes: [],
    socketRoutes: [echo, secretRoute],
    keyRing: createKeyRing([{ key: KEY, team: 'team-a' }]),
    faults: new FaultBook(),
    clock: createClock(),
    log: () => undefined,
  });
  await new Promise<void>((resolve) => http.server.listen(0, '127.0.0.1', resolve));
  base = `ws://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
});
afterAll(() => http.close());

/** Opens a socket and resolves with its first message, or with the HTTP refusal (status + JSON body). */
function connect(path: string, options: { headers?: Record<string, string>; protocols?: string[] } = {}) {
  return new Promise<{ ws: WebSocket; first: any } | { status: number; body: any; requestId: string | undefined }>((resolve, reject) => {
    const ws = new WebSocket(`${base}${path}`, options.protocols ?? [], { headers: options.headers });
    ws.once('message', (data) => resolve({ ws, first: JSON.parse(String(data)) }));
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), requestId: res.headers['x-request-id'] as string | undefined }));
    });
    ws.once('error', (err) => {
      if (!String(err.message).startsWith('Unexpected server response')) reject(err);
    });
  });
}

const auth = { authorization: `Bearer ${KEY}` };

describe('sandbox WebSocket routes', () => {
  it('upgrades with the API key, passing team, path parameters and the checked query', async () => {
    const r = await connect('/v1/echo/alpha?n=3', { headers: auth });
    if (!('ws' in r)) throw new Error(`refused: ${JSON.stringify(r)}`);
    expect(r.first).toEqual({ type: 'hello', team: 'team-a', name: 'alpha', n: 3, protocol: null });
    const reply = new Promise((resolve) => r.ws.once('message', (d) => resolve(JSON.parse(String(d)))));
    r.ws.send('ping');
    expect(await reply).toEqual({ type: 'echo', got: 'ping' });
    r.ws.close();
  });

  it('refuses before the upgrade with a status and the native JSON body', async () => {
    expect(await connect('/v1/echo/a')).toMatchObject({ status: 401, body: { code: 'The request does not have valid authentication credentials', error: expect.stringContaining('Missing Authorization header') } });
    expect(await connect('/v1/echo/a', { headers: { authorization: 'Bearer sk-nope-9999' } })).toMatchObject({ status: 400, body: { error: expect.stringContaining('Incorrect API key provided') } });
    const bad = await connect('/v1/echo/a?n=1.5', { headers: auth });
    expect(bad).toMatchObject({ status: 400, body: { code: 'Client specified an invalid argument', error: 'n must be a whole number, got "1.5".' } });
    expect((bad as { requestId?: string }).requestId).toMatch(/^[0-9a-f-]{36}$/);
    const missing = await connect('/v1/nowhere', { headers: auth });
    expect(missing).toMatchObject({ status: 404, body: { error: expect.stringContaining('No WebSocket endpoint at /v1/nowhere') } });
    expect(await connect('/v1/echo/a', { headers: { ...auth, host: 'evil.example' } })).toMatchObject({ status: 403 });
  });

  it('accepts a client secret as a subprotocol and echoes it in the 101', async () => {
    const r = await connect('/v1/secret', { protocols: ['svc-client-secret.good-secret'] });
    if (!('ws' in r)) throw new Error(`refused: ${JSON.stringify(r)}`);
    expect(r.ws.protocol).toBe('svc-client-secret.good-secret');
    expect(r.first).toEqual({ team: 'team-secret', protocol: 'svc-client-secret.good-secret' });
    r.ws.close();
    expect(await connect('/v1/secret', { protocols: ['svc-client-secret.bad'] })).toMatchObject({ status: 401, body: { error: 'The client secret is unknown or expired.' } });
    const byKey = await connect('/v1/secret', { headers: auth });
    if (!('ws' in byKey)) throw new Error('refused');
    expect(byKey.first).toEqual({ team: 'team-a', protocol: null });
    byKey.ws.close();
  });

  it('closes open connections when the server closes', async () => {
    const other = createSandboxHttpServer({ routes: [], socketRoutes: [echo], keyRing: createKeyRing([KEY]), faults: new FaultBook(), clock: createClock(), log: () => undefined });
    await new Promise<void>((resolve) => other.server.listen(0, '127.0.0.1', resolve));
    const ws = new WebSocket(`ws://127.0.0.1:${(other.server.address() as AddressInfo).port}/v1/echo/x`, { headers: auth });
    await new Promise((resolve) => ws.once('message', resolve));
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    await other.close();
    expect([1001, 1006]).toContain(await closed);
  });
});
