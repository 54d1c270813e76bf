/**
 * Call waiting, with the real console: the console has a call of its own (started from its form),
 * a SIP call rings. The banner says a call is already in the console; "End it and answer" ends
 * that call (as main does: the kind says `ended`, then the session ends) and answers, and the
 * console, idle again, shows the answered phone call. "Keep it and answer" leaves the console on
 * its own call (the answered one runs in main, its controls in Phone (SIP)).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import { RealtimeCallInputSchema, initialRealtimeCallSnapshot, type RealtimeCallSnapshot } from '@shared/realtime-call';
import type { SipCall } from '@shared/families/sip/contract';
import { mountWithApp, type Mounted } from '../../mount-app';

vi.mock('@/bridge/media', () => ({ mediaChannel: () => ({ onFrame: () => () => undefined, send: () => undefined }) }));
vi.mock('@/audio/page-capture', () => ({ PageCapture: { start: vi.fn() } }));
const { default: App } = await import('@/App.vue');

let m: Mounted;
afterEach(() => {
  m?.wrapper.unmount();
  document.body.innerHTML = '';
  window.sessionStorage.clear();
});

const snapshot = (input: unknown, runId: string): RealtimeCallSnapshot => ({ ...initialRealtimeCallSnapshot(RealtimeCallInputSchema.parse(input), runId), status: 'live' });
const ringing: SipCall = { callId: 'rtc_9', from: '+14155550100', to: '+18005550199', at: 1, state: 'ringing', liveSessionId: 'live_s9', mediaSessionId: null, problem: null, sandbox: true, digits: '', endReason: null };
const banner = () => document.querySelector('[aria-label="Incoming calls"]');

async function press(name: string): Promise<void> {
  const found = [...(banner()?.querySelectorAll('button') ?? [])].find((b) => b.textContent?.trim() === name);
  if (!found) throw new Error(`no ${name} in the banner: ${banner()?.outerHTML ?? '(no banner)'}`);
  found.click();
  await flushPromises();
}

/** The console on /realtime with a call it started; the realtime session main starts when rtc_9 is answered. */
async function consoleWithACall(): Promise<string> {
  m = await mountWithApp(App, { route: '/realtime' });
  for (let i = 0; i < 200 && !document.querySelector('[data-test="call-start"]'); i++) await new Promise((r) => setTimeout(r, 25));
  const { live } = m.fake.controls;
  const start = m.fake.live.start;
  m.fake.live.start = async (req) => {
    const started = await start(req);
    live.sessions.get(started.id)!.snapshot = snapshot({ microphone: { kind: 'native' }, output: { kind: 'native' } }, 'run_own');
    return started;
  };
  // As main stops a realtime call: the kind says it ended, then the session ends.
  const stop = m.fake.live.stop;
  m.fake.live.stop = async (req) => (live.emit(req.id, { type: 'status', status: 'ended', message: null }), stop(req));
  (document.querySelector('[data-test="call-start"]') as HTMLButtonElement).click();
  await flushPromises();
  const own = [...live.sessions.keys()][0]!;
  const input = { callId: 'rtc_9', microphone: { kind: 'none' }, output: { kind: 'none' } };
  live.sessions.set('live_rt_9', {
    summary: { id: 'live_rt_9', kind: 'realtime', origin: 'main', status: 'running', state: 'live', startedAt: 0, endedAt: null, endReason: null, error: null, attachments: 0 },
    input,
    snapshot: snapshot(input, 'run_sip9'),
    seq: 0,
    attachments: [],
  });
  m.fake.controls.sip.answerWith = 'live_rt_9';
  m.fake.controls.sip.ring(ringing);
  await flushPromises();
  return own;
}

describe('a SIP call ringing while the console has a call', { timeout: 30_000 }, () => {
  it('"End it and answer" ends the console’s call, and the console shows the answered phone call', async () => {
    const own = await consoleWithACall();
    expect(m.fake.controls.live.attaches).toEqual([own]);
    expect(banner()?.querySelector('[data-test="console-busy"]')?.textContent).toBe('A call is already in the console.');
    await press('Answer');
    await press('End it and answer');
    expect(m.fake.controls.live.sessions.has(own)).toBe(false);
    expect(m.fake.controls.live.attaches).toEqual([own, 'live_rt_9']);
    await m.router.push('/realtime');
    for (let i = 0; i < 200 && !document.querySelector('[data-test="phone-call-title"]'); i++) await new Promise((r) => setTimeout(r, 25));
    expect(document.querySelector('[data-test="phone-call-title"]')?.textContent).toBe('Phone call from +14155550100 to +18005550199');
  });

  it('"Keep it and answer" leaves the console on its own call', async () => {
    const own = await consoleWithACall();
    await press('Answer');
    await press('Keep it and answer');
    expect(m.fake.controls.live.sessions.has(own)).toBe(true);
    expect(m.fake.controls.live.attaches).toEqual([own]);
  });
});
