/**
 * /v1/realtime checked raw: client secrets (mint rules, expiry on the moved sandbox clock, the
 * stored session applied on connect), auth by API key or secret (Bearer or the subprotocol, echoed
 * in the 101), `call_id` only with an API key and only for a live call, the query's `model` and
 * `reasoning.effort` validated, and `session.created` then `conversation.created` on connect.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../../../main/sandbox/index';
import type { SandboxCallLink } from '../../../../main/sandbox/realtime/call-link';
import { connect, mintSecret, refusal } from './client';

const KEY = 'sk-rt-handshake-1';
const OTHER = 'sk-rt-handshake-other';
const auth = { authorization: `Bearer ${KEY}` };
let sb: SandboxServer;
const joined: string[] = [];
const call: SandboxCallLink = {
  callId: 'call-live-1',
  team: 'team-sandbox',
  join(listener) {
    joined.push('joined');
    setTimeout(() => {
      listener.audio(new Uint8Array(160).fill(0xff), 0);
      for (const k of '12#') listener.dtmf(k, 20);
      listener.dtmf('7', 40);
    }, 10);
    return { ok: true, call: { refer: () => ({ ok: true }), hangup: () => ({ ok: true }), leave: () => void joined.push('left') } };
  },
};

beforeAll(async () => {
  sb = await startSandbox({ keys: [KEY, { key: OTHER, team: 'team-other' }], tokenDelayMs: 0, realtime: { calls: { find: (id, team) => (id === call.callId && team === call.team ? call : undefined) } } });
});
afterAll(() => sb.close());

async function advance(seconds: number): Promise<void> {
  const res = await fetch(`${sb.url}/sandbox/clock/advance`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ seconds }) });
  expect(res.status).toBe(200);
}

describe('POST /v1/realtime/client_secrets', () => {
  it('mints a secret expiring after 600 s by default, or the seconds asked for', async () => {
    const clock = (await (await fetch(`${sb.url}/sandbox/clock`, { headers: auth })).json()) as { now: number };
    const a = await mintSecret(sb, KEY, {});
    expect(a.status).toBe(200);
    expect(Object.keys(a.body).sort()).toEqual(['expires_at', 'value']);
    expect(a.body.expires_at - clock.now).toBeGreaterThanOrEqual(600);
    expect(a.body.expires_at - clock.now).toBeLessThanOrEqual(601);
    const b = await mintSecret(sb, KEY, { expires_after: { seconds: 3600 } });
    expect(b.body.expires_at - clock.now).toBeGreaterThanOrEqual(3600);
    expect(b.body.value).not.toBe(a.body.value);
  });

  it('refuses broken rules, each with its status and message', async () => {
    const cases: Array<[unknown, number, string]> = [
      [{ expires_after: { seconds: 3601 } }, 400, 'expires_after.seconds must be between 1 and 3600; got 3601'],
      [{ expires_after: { seconds: 0 } }, 400, 'between 1 and 3600; got 0'],
      [{ expires_after: { seconds: 1.5 } }, 422, 'expires_after.seconds must be an integer'],
      [{ expires_after: 5 }, 422, 'expires_after must be an object'],
      [{ ttl: 5 }, 400, 'Unknown field ttl'],
      [{ session: { voice: 'bob' } }, 400, "Unknown voice 'bob'"],
      [{ session: { model: 'svc-4' } }, 400, 'session.model must be one of svc-voice-latest'],
      [{ session: 'x' }, 422, 'session must be an object'],
    ];
    for (const [body, status, message] of cases) {
      const r = await mintSecret(sb, KEY, body);
      expect({ body, status: r.status }).toEqual({ body, status });
      expect(r.body.error, JSON.stringify(body)).toContain(message);
    }
    const anon = await fetch(`${sb.url}/v1/realtime/client_secrets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(anon.status).toBe(401);
  });
});

describe('WebSocket /v1/realtime handshake', () => {
  it('with the API key: session.created then conversation.created, the defaults in full', async () => {
    const c = await connect(sb, { headers: auth });
    await c.until('conversation.created');
    expect(c.types()).toEqual(['session.created', 'conversation.created']);
    const [created, conv] = c.events;
    expect(created.event_id).toMatch(/^event_/);
    expect(created.session).toMatchObject({
      object: 'realtime.session',
      model: 'svc-voice-latest',
      reasoning: { effort: 'high' },
      voice: 'eve',
      output_modalities: ['audio'],
      turn_detection: { type: 'server_vad', threshold: 0.85, prefix_padding_ms: 333, silence_duration_ms: 500, idle_timeout_ms: null },
      audio: { input: { format: { type: 'audio/pcm', rate: 24000 }, transcription: null }, output: { format: { type: 'audio/pcm', rate: 24000 }, voice: 'eve', speed: 1 } },
      tools: [],
    });
    expect(created.session.id).toMatch(/^sess_/);
    expect(conv.conversation).toEqual({ id: expect.stringMatching(/^conv_/), object: 'realtime.conversation' });
    c.close();
  });

  it('takes model and reasoning.effort from the query, and refuses bad values before the upgrade', async () => {
    const c = await connect(sb, { headers: auth, query: 'model=svc-voice-fast-1.0&reasoning.effort=none' });
    const created = await c.until('session.created');
    expect(created.session.model).toBe('svc-voice-fast-1.0');
    expect(created.session.reasoning).toEqual({ effort: 'none' });
    c.close();
    const cases: Array<[string, number, string]> = [
      ['model=svc-4', 404, 'The model svc-4 does not exist or is not a realtime model'],
      ['reasoning.effort=low', 400, 'reasoning.effort must be "high" or "none"; got "low"'],
      ['voice=eve', 400, 'unknown query parameter voice'],
      ['model=svc-voice-latest&model=svc-voice-latest', 400, 'model is given 2 times'],
      ['conversation_id=conv_1', 404, 'No conversation conv_1 to resume'],
      ['call_id=nope', 404, 'No live call nope'],
    ];
    for (const [query, status, message] of cases) {
      const r = await refusal(sb, query, auth);
      expect({ query, status: r.status }).toEqual({ query, status });
      expect(r.body.error, query).toContain(message);
    }
  });

  it('refuses a missing or wrong key with the HTTP routes\' answers', async () => {
    expect((await refusal(sb, '', {})).status).toBe(401);
    const wrong = await refusal(sb, '', { authorization: 'Bearer sk-nope-1234' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toContain('Incorrect API key provided');
  });

  it('accepts a client secret as the subprotocol (echoed) or as Bearer, applying its session', async () => {
    const minted = await mintSecret(sb, KEY, { expires_after: { seconds: 60 }, session: { model: 'svc-voice-think-fast-2.0', voice: 'rex', instructions: 'Be brief.', turn_detection: null } });
    expect(minted.status).toBe(200);
    const proto = `svc-client-secret.${minted.body.value}`;
    const viaProtocol = await connect(sb, { protocols: [proto] });
    expect(viaProtocol.protocol).toBe(proto);
    const s = (await viaProtocol.until('session.created')).session;
    expect(s).toMatchObject({ model: 'svc-voice-think-fast-2.0', voice: 'rex', instructions: 'Be brief.', turn_detection: null });
    viaProtocol.close();
    const viaHeader = await connect(sb, { headers: { authorization: `Bearer ${minted.body.value}` } });
    expect(viaHeader.protocol).toBe('');
    expect((await viaHeader.until('session.created')).session.voice).toBe('rex');
    viaHeader.close();
    // A browser may offer other protocols too; only the secret's is echoed.
    const both = await connect(sb, { protocols: ['realtime', proto] });
    expect(both.protocol).toBe(proto);
    both.close();
  });

  it('refuses an unknown secret, and an expired one once the sandbox clock passes expires_at', async () => {
    const unknown = await refusal(sb, '', {}, ['svc-client-secret.cs-sandbox-nope']);
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toContain('is not valid');
    const minted = await mintSecret(sb, KEY, { expires_after: { seconds: 30 } });
    const ok = await connect(sb, { protocols: [`svc-client-secret.${minted.body.value}`] });
    ok.close();
    await advance(31);
    for (const [headers, protocols] of [[{}, [`svc-client-secret.${minted.body.value}`]], [{ authorization: `Bearer ${minted.body.value}` }, []]] as const) {
      const r = await refusal(sb, '', headers, [...protocols]);
      expect(r.status).toBe(401);
      expect(r.body.error).toContain(`expired at ${new Date(minted.body.expires_at * 1000).toISOString()}`);
    }
  });

  it('joins a live call only with the API key of its team', async () => {
    const minted = await mintSecret(sb, KEY, {});
    const bySecret = await refusal(sb, 'call_id=call-live-1', {}, [`svc-client-secret.${minted.body.value}`]);
    expect(bySecret.status).toBe(403);
    expect(bySecret.body.error).toContain('needs the API key');
    const otherTeam = await refusal(sb, 'call_id=call-live-1', { authorization: `Bearer ${OTHER}` });
    expect(otherTeam.status).toBe(404);
    const c = await connect(sb, { headers: auth, query: 'call_id=call-live-1&model=whatever-ignored' });
    const created = await c.until('session.created');
    // A call is G.711 µ-law both ways; the query's model is ignored.
    expect(created.session.model).toBe('svc-voice-latest');
    expect(created.session.audio.input.format).toEqual({ type: 'audio/pcmu', rate: 8000 });
    // Each key reported; "12#" flushed by # as a user message (answered: server VAD is on);
    // "7" flushed after 2.5 s without another key.
    const dtmf = await c.until('input_audio_buffer.dtmf_event_received', 4);
    expect(c.events.filter((e) => e.type === 'input_audio_buffer.dtmf_event_received').map((e) => e.event)).toEqual(['1', '2', '#', '7']);
    expect(Math.abs(dtmf.received_at - Date.now() / 1000)).toBeLessThan(60);
    const flushed = await c.until('conversation.item.added');
    expect(flushed.item).toMatchObject({ type: 'message', role: 'user', content: [{ type: 'input_text', text: '12#' }] });
    expect(c.types().indexOf('conversation.item.added')).toBeGreaterThan(c.types().indexOf('input_audio_buffer.dtmf_event_received'));
    await c.until('response.created');
    const idle = await c.until('conversation.item.added', 2);
    expect(idle.item.content).toEqual([{ type: 'input_text', text: '7' }]);
    c.close();
    await c.closed;
    await new Promise((r) => setTimeout(r, 50));
    expect(joined).toEqual(['joined', 'left']);
  });
});
