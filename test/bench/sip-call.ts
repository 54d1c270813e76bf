/**
 * Simulated SIP calls through the sandbox, as the app's receiver meets them (`npm run bench sipCall`,
 * or `npx tsx test/bench/sip-call.ts [calls] [seconds]`):
 *
 * - `calls`: N calls placed one after another through the control API (`POST /sandbox/calls`, a
 *   silent caller), each answered the way the app will: the signed `realtime.call.incoming`
 *   webhook is verified (standardwebhooks) and the call joined over `/v1/realtime?call_id=` with
 *   the key. Per call: the POST's round trip; webhook delivery (POST sent -> webhook received);
 *   join (socket opened) -> the first caller frame handed to the session (the call's listener,
 *   wrapped in-process); a DTMF press (`POST …/dtmf {"digits":"5#"}`) -> the `conversation.item.added`
 *   carrying "5#" (the `#` flush); hangup (`POST /v1/realtime/calls/{id}/hangup`) -> the socket's close.
 * - `frameLateness`: one call of `seconds` (default 10) joined directly: how late its 20 ms µ-law
 *   frames arrive against the wall clock from the join; and `POST /sandbox/calls` with `say`
 *   (the synthesiser makes the audio before the answer).
 *
 * The 1-minute load average is written before and after: the machine is shared, so figures mean
 * little without it.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { Webhook } from 'standardwebhooks';
import { WebSocket } from 'ws';
import { startSandbox, type SandboxServer } from '../../main/sandbox/index';
import type { CallListener } from '../../main/sandbox/sip/call-link';
import { sharedEspeakEngine } from '../../main/sandbox/tts/espeak';

const KEY = 'sk-bench-sip';
const TEAM = 'team-sandbox';
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const r1 = (v: number) => Math.round(v * 10) / 10;

function summary(values: number[]): Record<string, number | number[]> {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: r1(pct(sorted, 50)), p95: r1(pct(sorted, 95)), max: r1(sorted.at(-1) ?? 0), each: values.map(r1) };
}

function poster(sb: SandboxServer) {
  return (path: string, body: unknown) => fetch(`${sb.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** N calls answered through the webhook, each measured from the client's side. */
async function calls(sb: SandboxServer, n: number): Promise<Record<string, unknown>> {
  const post = poster(sb);
  // Each verified delivery's arrival by call id; a delivery may come before the POST has answered.
  const arrived = new Map<string, number>();
  const waiting = new Map<string, (at: number) => void>();
  const hookFor = (id: string) => new Promise<number>((resolve) => (arrived.has(id) ? resolve(arrived.get(id)!) : waiting.set(id, resolve)));
  let verifier: Webhook | null = null;
  const rejected: string[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      try {
        const event = verifier!.verify(Buffer.concat(chunks).toString('utf8'), req.headers as IncomingHttpHeaders as Record<string, string>) as { data: { call_id: string } };
        res.writeHead(204).end();
        arrived.set(event.data.call_id, at);
        waiting.get(event.data.call_id)?.(at);
      } catch (error) {
        rejected.push(String(error));
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const number = '+18005550102';
  const registered = await post('/v2/phone-numbers', { origin: 'svc_provisioned', name: 'bench calls', phone_number: number, webhook: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/incoming` } });
  verifier = new Webhook(((await registered.json()) as { webhook: { dispatch_signing_secret: string } }).webhook.dispatch_signing_secret);

  const m = { placeMs: [] as number[], webhookMs: [] as number[], joinToFirstFrameMs: [] as number[], dtmfToItemMs: [] as number[], hangupToCloseMs: [] as number[] };
  try {
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const res = await post('/sandbox/calls', { to: number, from: '+14155550100', script: { hangup_after_ms: null } });
      m.placeMs.push(performance.now() - t0);
      const callId = ((await res.json()) as { call_id: string }).call_id;
      m.webhookMs.push((await hookFor(callId)) - t0);

      // The first frame the session is handed, seen by wrapping the call's join in-process.
      const link = sb.calls.find(callId, TEAM);
      if (!link) throw new Error(`call ${callId} not found`);
      let firstFrame = 0;
      const join = link.join.bind(link);
      link.join = (listener: CallListener) =>
        join({
          ...listener,
          audio: (frame, atMs) => {
            if (firstFrame === 0) firstFrame = performance.now();
            listener.audio(frame, atMs);
          },
        });
      const tJoin = performance.now();
      const ws = new WebSocket(`${sb.url.replace('http', 'ws')}/v1/realtime?call_id=${callId}`, { headers: { authorization: `Bearer ${KEY}` } });
      const events: Array<{ type: string; at: number; [k: string]: unknown }> = [];
      const waiters: Array<() => void> = [];
      ws.on('message', (data) => {
        events.push({ ...(JSON.parse(String(data)) as { type: string }), at: performance.now() });
        for (const w of waiters.splice(0)) w();
      });
      const closed = new Promise<number>((resolve) => ws.once('close', () => resolve(performance.now())));
      await new Promise((resolve, reject) => {
        ws.once('open', resolve);
        ws.once('error', reject);
      });
      const until = (test: (e: (typeof events)[number]) => boolean) =>
        new Promise<(typeof events)[number]>((resolve) => {
          const check = () => {
            const found = events.find(test);
            if (found) resolve(found);
            else waiters.push(check);
          };
          check();
        });
      await until((e) => e.type === 'session.created');
      while (firstFrame === 0) await new Promise((r) => setTimeout(r, 5));
      m.joinToFirstFrameMs.push(firstFrame - tJoin);

      const tPress = performance.now();
      await post(`/sandbox/calls/${callId}/dtmf`, { digits: '5#' });
      const item = await until((e) => e.type === 'conversation.item.added' && JSON.stringify(e.item).includes('"5#"'));
      m.dtmfToItemMs.push(item.at - tPress);

      const tHang = performance.now();
      await post(`/v1/realtime/calls/${callId}/hangup`, {});
      m.hangupToCloseMs.push((await closed) - tHang);
    }
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
  }
  return {
    calls: n,
    webhooksRejected: rejected.length,
    placeMs: summary(m.placeMs),
    webhookDeliveryMs: summary(m.webhookMs),
    joinToFirstCallerFrameMs: summary(m.joinToFirstFrameMs),
    dtmfPressToItemMs: summary(m.dtmfToItemMs),
    hangupToSocketCloseMs: summary(m.hangupToCloseMs),
  };
}

/** One call joined directly: its frames' lateness against the wall clock; and `say` placing costs. */
async function frameLateness(sb: SandboxServer, seconds: number): Promise<Record<string, unknown>> {
  const post = poster(sb);
  await post('/v2/phone-numbers', { origin: 'svc_provisioned', name: 'bench', phone_number: '+18005550101', webhook: { url: 'http://127.0.0.1:9/hook' } });
  const placeMs: number[] = [];
  let callId = '';
  for (let i = 0; i < 4; i++) {
    const t0 = performance.now();
    const res = await post('/sandbox/calls', { to: '+18005550101', from: '+14155550100', script: { say: `Hello, this is call number ${i}. I would like to check the status of my order, please.`, hangup_after_ms: seconds * 1000 } });
    placeMs.push(Math.round(performance.now() - t0));
    callId = ((await res.json()) as { call_id: string }).call_id;
  }
  const link = sb.calls.find(callId, TEAM);
  if (!link) throw new Error('call not found');
  const lateness: number[] = [];
  let t0 = 0;
  const end = new Promise<void>((resolve) => {
    const joined = link.join({ audio: (_f, at) => lateness.push(performance.now() - t0 - (at + 20)), dtmf: () => undefined, ended: () => resolve() });
    t0 = performance.now();
    if (!joined.ok) throw new Error(joined.message);
  });
  await end;
  lateness.sort((a, b) => a - b);
  return {
    placeWithSayMs: placeMs,
    frames: lateness.length,
    frameLateMs: { p50: r1(pct(lateness, 50)), p95: r1(pct(lateness, 95)), p99: r1(pct(lateness, 99)), max: r1(lateness.at(-1) ?? 0) },
  };
}

export async function run(n = 10, seconds = 10): Promise<Record<string, unknown>> {
  const sb = await startSandbox({ keys: [KEY], sip: { webhookRetryDelaysMs: [] } });
  const loadBefore = loadavg()[0];
  try {
    const answered = await calls(sb, n);
    const frames = await frameLateness(sb, seconds);
    return { loadavg1mBefore: r1(loadBefore), loadavg1mAfter: r1(loadavg()[0]), ...answered, frameLateness: frames };
  } finally {
    await sb.close();
    // The synthesiser's worker (the callers' `say`) would keep the process alive.
    await sharedEspeakEngine().close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  void run(Number(process.argv[2] ?? 10), Number(process.argv[3] ?? 10)).then((r) => process.stdout.write(`${JSON.stringify(r, null, 2)}\n`));
}
