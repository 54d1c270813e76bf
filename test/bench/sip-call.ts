/**
 * A simulated SIP call's costs: how long `POST /sandbox/calls` takes with `say` (the synthesiser
 * makes the caller's audio before answering) and with an 8 kHz WAV file, and how late the joined
 * call's 20 ms µ-law frames arrive against the wall clock from the join (frame start + 20 ms), over
 * a call of `seconds` (default 10). `npx tsx test/bench/sip-call.ts [seconds]`; not in run.ts.
 */
import { loadavg } from 'node:os';
import { startSandbox } from '../../main/sandbox/index';

const KEY = 'sk-bench-sip';
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

export async function run(seconds = 10): Promise<Record<string, unknown>> {
  const sb = await startSandbox({ keys: [KEY], sip: { webhookRetryDelaysMs: [] } });
  const post = (path: string, body: unknown) => fetch(`${sb.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  try {
    await post('/v2/phone-numbers', { origin: 'svc_provisioned', name: 'bench', phone_number: '+18005550101', webhook: { url: 'http://127.0.0.1:9/hook' } });
    const placeMs: number[] = [];
    let callId = '';
    for (let i = 0; i < 4; i++) {
      const t0 = performance.now();
      const res = await post('/sandbox/calls', { to: '+18005550101', from: '+14155550100', script: { say: `Hello, this is call number ${i}. I would like to check the status of my order, please.`, hangup_after_ms: seconds * 1000 } });
      placeMs.push(Math.round(performance.now() - t0));
      callId = ((await res.json()) as { call_id: string }).call_id;
    }
    const link = sb.calls.find(callId, 'team-sandbox');
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
    const r = (v: number) => Math.round(v * 10) / 10;
    return {
      load: loadavg()[0],
      placeWithSayMs: placeMs,
      frames: lateness.length,
      frameLateMs: { p50: r(pct(lateness, 50)), p95: r(pct(lateness, 95)), p99: r(pct(lateness, 99)), max: r(lateness.at(-1) ?? 0) },
    };
  } finally {
    await sb.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  void run(Number(process.argv[2] ?? 10)).then((r) => process.stdout.write(`${JSON.stringify(r, null, 2)}\n`));
}
