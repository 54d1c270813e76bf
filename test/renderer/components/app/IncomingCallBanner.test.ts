/**
 * The shell's ringing banner (the sip family's `shell` component, mounted by App.vue over every
 * view): a call that rings while another view is open is announced with Answer / Decline; Answer
 * opens Phone (SIP), Decline declines it, a refusal is said in the banner; and the banner stays out of
 * the SIP panel itself. While the call console has a call (a realtime session this window is
 * attached to), the banner says so and Answer asks first, as a phone's call waiting: end it and
 * answer, keep it and answer, or not yet.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import App from '@/App.vue';
import { SHELL_COMPONENTS } from '@/families';
import IncomingCallBanner from '@/families/sip/components/IncomingCallBanner.vue';
import type { SipCall } from '@shared/families/sip/contract';
import { useLiveSessionsStore } from '@/stores/live-sessions';
import { mountWithApp, type Mounted } from '../../mount-app';

let m: Mounted;
afterEach(() => {
  m?.wrapper.unmount();
  document.body.innerHTML = '';
});

const ringing: SipCall = { callId: 'call_9', from: '+14155550100', to: '+18005550199', at: 1, state: 'ringing', liveSessionId: 'live_9', mediaSessionId: null, problem: null, sandbox: true, digits: '', endReason: null };
const banner = () => document.querySelector('[aria-label="Incoming calls"]');
const calls = (method: string) => m.fake.controls.calls.filter((c) => c.method === method).map((c) => c.input);

async function press(name: string): Promise<void> {
  const found = [...(banner()?.querySelectorAll('button') ?? [])].find((b) => b.textContent?.trim() === name);
  if (!found) throw new Error(`no ${name} in the banner: ${banner()?.outerHTML ?? '(no banner)'}`);
  found.click();
  await flushPromises();
}

describe('the incoming-call banner', { timeout: 30_000 }, () => {
  it('is one of the shell’s components', () => {
    expect(SHELL_COMPONENTS).toContain(IncomingCallBanner);
  });

  it('announces a ringing call on another view; Answer opens Phone (SIP)', async () => {
    m = await mountWithApp(App, { route: '/chat' });
    expect(banner()).toBeNull();
    m.fake.controls.sip.answerWith = 'live_rt_9';
    m.fake.controls.sip.ring(ringing);
    await flushPromises();
    expect(banner()?.textContent).toContain('Incoming call from +14155550100 to +18005550199');
    await press('Answer');
    expect(calls('sip.answer')).toEqual([{ callId: 'call_9' }]);
    // The SIP view loads lazily: wait for the navigation to land.
    for (let i = 0; i < 200 && m.router.currentRoute.value.path !== '/sip'; i++) await new Promise((r) => setTimeout(r, 25));
    expect(m.router.currentRoute.value.path).toBe('/sip');
    expect(banner()).toBeNull();
  });

  it('declines from the banner, and says a refusal there', async () => {
    m = await mountWithApp(App, { route: '/chat' });
    m.fake.controls.sip.ring(ringing);
    await flushPromises();
    await press('Answer');
    expect(banner()?.textContent).toMatch(/call console is not available/);
    expect(m.router.currentRoute.value.path).toBe('/chat');
    await press('Decline');
    expect(calls('sip.decline')).toEqual([{ callId: 'call_9' }]);
    expect(banner()).toBeNull();
  });

  it('stays out of the SIP panel, which lists ringing calls itself', async () => {
    m = await mountWithApp(App, { route: '/sip' });
    m.fake.controls.sip.ring(ringing);
    await flushPromises();
    expect(document.querySelector('[data-call="call_9"]')?.getAttribute('data-state')).toBe('ringing');
    expect(banner()).toBeNull();
    await m.router.push('/chat');
    await flushPromises();
    expect(banner()?.textContent).toContain('+14155550100');
  });

  describe('while the console has a call', () => {
    /** A realtime call running in main that this window's console is attached to. */
    async function consoleHasACall(): Promise<string> {
      const { id } = await m.fake.live.start({ kind: 'realtime', input: {} });
      useLiveSessionsStore().attach(id);
      await flushPromises();
      return id;
    }
    const running = () => [...m.fake.controls.live.sessions.keys()];

    it('says so, and Answer asks before ending it: "Not yet" keeps it ringing, "End it and answer" ends the console’s call first', async () => {
      m = await mountWithApp(App, { route: '/realtime' });
      const held = await consoleHasACall();
      m.fake.controls.sip.answerWith = 'live_rt_9';
      m.fake.controls.sip.ring(ringing);
      await flushPromises();
      expect(banner()?.querySelector('[data-test="console-busy"]')?.textContent).toBe('A call is already in the console.');
      await press('Answer');
      expect(calls('sip.answer')).toEqual([]); // asked, not answered
      expect(banner()?.querySelector('[data-test="answer-ask"]')?.textContent).toContain('Answering ends the call in the console. End it?');
      await press('Not yet');
      expect(banner()?.querySelector('[data-test="answer-ask"]')).toBeNull();
      expect(calls('sip.answer')).toEqual([]);
      expect(running()).toEqual([held]);

      // Ended before the answer: the console is idle when the answered call comes, and takes it.
      const answer = m.fake.sip.answer;
      let runningAtAnswer: string[] | null = null;
      m.fake.sip.answer = (input) => ((runningAtAnswer = running()), answer(input));
      await press('Answer');
      await press('End it and answer');
      expect(calls('sip.answer')).toEqual([{ callId: 'call_9' }]);
      expect(runningAtAnswer).toEqual([]);
      expect(running()).toEqual([]);
    });

    it('"Keep it and answer" answers and leaves the console’s call going', async () => {
      m = await mountWithApp(App, { route: '/chat' });
      const held = await consoleHasACall();
      m.fake.controls.sip.answerWith = 'live_rt_9';
      m.fake.controls.sip.ring(ringing);
      await flushPromises();
      await press('Answer');
      await press('Keep it and answer');
      expect(calls('sip.answer')).toEqual([{ callId: 'call_9' }]);
      expect(running()).toEqual([held]);
    });

    it('answers at once again once the console’s call has ended', async () => {
      m = await mountWithApp(App, { route: '/chat' });
      const held = await consoleHasACall();
      m.fake.controls.sip.answerWith = 'live_rt_9';
      m.fake.controls.sip.ring(ringing);
      await flushPromises();
      expect(banner()?.querySelector('[data-test="console-busy"]')).not.toBeNull();
      m.fake.controls.live.end(held);
      await flushPromises();
      expect(banner()?.querySelector('[data-test="console-busy"]')).toBeNull();
      await press('Answer');
      expect(calls('sip.answer')).toEqual([{ callId: 'call_9' }]);
    });
  });
});
