/**
 * A simulated SIP call end to end through the sandbox's own HTTP and WebSocket surfaces, as the
 * app will meet it: register a number with a webhook URL, place a call through the control API,
 * receive the signed `realtime.call.incoming` (verified with standardwebhooks and the number's
 * secret), join it over `/v1/realtime?call_id=` with the API key, hear the caller's speech (server
 * VAD turns on it), get the pressed keys as `dtmf_event_received` and the buffered digits as a user
 * message on `#`, then hang up through the service endpoint: the socket closes with the reason.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../../../main/sandbox/index';
import { connect } from './client';

const KEY = 'sk-rt-sip-1';
const NUMBER = '+18005550142';
let sb: SandboxServer;
let receiver: Server;
const deliveries: Array<{ body: string; headers: IncomingHttpHeaders }> = [];
let delivered: () => void = () => {};

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      deliveries.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      res.writeHead(204).end();
      delivered();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  sb = await startSandbox({ keys: [KEY], tokenDelayMs: 0, realtime: { audioLeadMs: Infinity } });
});
afterAll(async () => {
  await sb.close();
  await new Promise((resolve) => receiver.close(resolve));
});

const post = (path: string, body: unknown) =>
  fetch(`${sb.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('a SIP call through the sandbox, end to end', () => {
  it('rings with a signed webhook, is joined by call_id, carries the caller and their keys, and hangs up', async () => {
    const port = (receiver.address() as AddressInfo).port;
    const registered = await post('/v2/phone-numbers', { origin: 'byo_trunk', name: 'Support', phone_number: NUMBER, webhook: { url: `http://127.0.0.1:${port}/incoming` }, sip_auth: { allowed_addresses: ['127.0.0.0/8'] } });
    expect(registered.status).toBe(200);
    const secret = ((await registered.json()) as { webhook: { dispatch_signing_secret: string } }).webhook.dispatch_signing_secret;

    const rang = new Promise<void>((resolve) => (delivered = resolve));
    const placed = await post('/sandbox/calls', {
      to: NUMBER,
      from: '+14155550100',
      script: { say: 'Hello, I would like to check my order please.', dtmf: [{ digit: '4', at_ms: 300 }, { digit: '2', at_ms: 400 }, { digit: '#', at_ms: 500 }], hangup_after_ms: null },
    });
    expect(placed.status).toBe(200);
    const callId = ((await placed.json()) as { call_id: string }).call_id;

    // The webhook: signed with the number's secret, naming the call.
    await rang;
    const [hook] = deliveries;
    const event = new Webhook(secret).verify(hook.body, hook.headers as Record<string, string>) as { type: string; data: { call_id: string } };
    expect(event).toMatchObject({ type: 'realtime.call.incoming', data: { call_id: callId } });

    // Joined with the API key: the session speaks G.711 µ-law at 8 kHz, as a phone line does.
    const rt = await connect(sb, { query: `call_id=${callId}`, headers: { authorization: `Bearer ${KEY}` } });
    const created = await rt.until('session.created');
    expect(JSON.stringify(created.session)).toContain('audio/pcmu');

    // The keys arrive one by one, and `#` flushes them as the caller's text.
    const keys = await Promise.all([rt.until('input_audio_buffer.dtmf_event_received', 1), rt.until('input_audio_buffer.dtmf_event_received', 2), rt.until('input_audio_buffer.dtmf_event_received', 3)]);
    expect(keys.map((k) => k.event ?? k.digit)).toEqual(['4', '2', '#']);
    const typed = await rt.until('conversation.item.added');
    expect(typed.item).toMatchObject({ role: 'user', content: [{ type: 'input_text', text: '42#' }] });

    // The caller's speech reaches the server VAD as audio: a turn starts on it.
    await rt.until('input_audio_buffer.speech_started');

    // Hang up through the service: the socket closes, saying why.
    const hung = await post(`/v1/realtime/calls/${callId}/hangup`, {});
    expect(hung.status).toBe(200);
    const closed = await rt.closed;
    expect(closed.code).toBe(1000);
    expect(closed.reason.length).toBeGreaterThan(0);
    const status = (await (await fetch(`${sb.url}/sandbox/calls/${callId}`, { headers: { authorization: `Bearer ${KEY}` } })).json()) as { state: string };
    expect(status.state).toBe('ended');
  });
});
