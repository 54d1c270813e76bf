/**
 * The Phone (SIP) panel against the fake workbench: the register form checked with the service's
 * own rules before anything is sent, the service's refusal shown in its words, the secret shown
 * once, the receiver's URL; a ringing call's Answer (refused while no console exists) and
 * Decline; an answered call's transfer target checked before `sip.refer`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import SipView from '@/families/sip/views/SipView.vue';
import type { SipCall } from '@shared/families/sip/contract';
import { useLiveSessionsStore } from '@/stores/live-sessions';
import { button, mountWithApp, type Mounted } from '../mount-app';

let m: Mounted;
afterEach(() => {
  m?.wrapper.unmount();
  document.body.innerHTML = '';
});

const calls = (method: string) => m.fake.controls.calls.filter((c) => c.method === method).map((c) => c.input);
const alerts = () => [...document.querySelectorAll('[role="alert"]')].map((a) => a.textContent?.trim());

/** The control a label names, as assistive technology finds it: its <label for>, or its aria-label. */
function control(label: string): HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement {
  const byLabel = [...document.querySelectorAll('label')].find((l) => l.textContent?.trim() === label);
  const el = (byLabel?.htmlFor ? document.getElementById(byLabel.htmlFor) : null) ?? document.querySelector(`[aria-label="${label}"]`);
  if (!el) throw new Error(`no control labelled ${label}`);
  return el as HTMLInputElement;
}

async function type(label: string, value: string): Promise<void> {
  const el = control(label);
  el.value = value;
  el.dispatchEvent(new Event('input'));
  await flushPromises();
}

async function press(name: string, index = 0): Promise<void> {
  const found = [...document.querySelectorAll('button')].filter((b) => b.textContent?.trim() === name || b.getAttribute('aria-label') === name);
  (found[index] ?? button(m.wrapper, name)).click();
  await flushPromises();
}

const ringing: SipCall = { callId: 'call_1', from: '+14155550100', to: '+18005550199', at: 1, state: 'ringing', liveSessionId: 'live_1', mediaSessionId: null, problem: null, sandbox: true, digits: '', endReason: null };

describe('SipView', { timeout: 30_000 }, () => {
  it('checks the form with the service’s rules, registers, and shows the secret once with the receiver’s URL', async () => {
    m = await mountWithApp(SipView, { route: '/sip' });
    expect(document.querySelector('.view h1')?.textContent).toBe('Phone (SIP)');
    await press('Register');
    expect(calls('sip.register')).toEqual([]);
    expect(alerts()).toEqual(expect.arrayContaining(['Give the number a name.', expect.stringMatching(/needs its phone number/), expect.stringMatching(/address blocks/)]));

    await type('Name', 'Front desk');
    await type('Phone number', '+1 800 555 0199');
    await type('Allowed addresses (CIDR)', '203.0.113.7/24');
    expect(alerts()).toEqual(expect.arrayContaining([expect.stringMatching(/did you mean "\+18005550199"/), expect.stringMatching(/host bits set: the network of that block is "203.0.113.0\/24"/)]));
    await press('Register');
    expect(calls('sip.register')).toEqual([]);

    await type('Phone number', '+18005550199');
    await type('Allowed addresses (CIDR)', '203.0.113.0/24');
    await press('Register');
    expect(calls('sip.register')).toEqual([{ origin: 'byo_trunk', name: 'Front desk', phoneNumber: '+18005550199', allowedAddresses: ['203.0.113.0/24'] }]);
    expect(document.querySelector('[data-test="signing-secret"]')?.textContent).toBe('whsec_fakesecret1');
    expect(document.querySelector('[data-test="receiver-url"]')?.textContent).toBe('http://127.0.0.1:45123/webhooks/sip');
    expect(document.querySelector('tr[data-number="+18005550199"]')?.textContent).toContain('kept');
    await press('Done');
    expect(document.querySelector('[data-test="signing-secret"]')).toBeNull();
  });

  it('takes sip_auth as the spec has it: digest credentials instead of address blocks (both or neither), or both forms', async () => {
    m = await mountWithApp(SipView, { route: '/sip' });
    await type('Name', 'Trunk');
    await type('Phone number', '+18005550198');
    await type('Digest user name', 'trunk-user');
    await press('Register');
    expect(calls('sip.register')).toEqual([]);
    expect(alerts()).toEqual(['Digest authentication takes a password with the user name.']);
    await type('Digest user name', '');
    await type('Digest password', 's3cret pass');
    expect(alerts()).toEqual(['Digest authentication takes a user name with the password.']);
    await type('Digest user name', 'trunk-user');
    expect(alerts()).toEqual([]);
    await press('Register');
    expect(calls('sip.register')).toEqual([{ origin: 'byo_trunk', name: 'Trunk', phoneNumber: '+18005550198', allowedAddresses: [], digest: { username: 'trunk-user', password: 's3cret pass' } }]);
    // Sent: the form forgets the password.
    expect(control('Digest password').value).toBe('');
    await press('Done');

    await type('Name', 'Both');
    await type('Phone number', '+18005550197');
    await type('Allowed addresses (CIDR)', '203.0.113.0/24');
    await type('Digest user name', 'u');
    await type('Digest password', 'p');
    await press('Register');
    expect(calls('sip.register').at(-1)).toEqual({ origin: 'byo_trunk', name: 'Both', phoneNumber: '+18005550197', allowedAddresses: ['203.0.113.0/24'], digest: { username: 'u', password: 'p' } });
  });

  it('shows each number’s sip_auth: the address blocks its trunk may call from, "any" when none, and a digest user', async () => {
    m = await mountWithApp(SipView, { route: '/sip' });
    const blocks = ['203.0.113.0/24', '198.51.100.0/25', '192.0.2.16/28', '2001:db8::/32'];
    m.fake.controls.sip.numbers.push(
      { number: { phone_number_id: 'pn_a', phone_number: '+18005550101', name: 'Trunk', origin: 'byo_trunk', sip_auth: { allowed_addresses: blocks } }, secretKept: true },
      { number: { phone_number_id: 'pn_b', phone_number: '+18005550102', name: 'Provisioned', origin: 'svc_provisioned' }, secretKept: true },
      { number: { phone_number_id: 'pn_c', phone_number: '+18005550103', name: 'Digest', origin: 'byo_trunk', sip_auth: { allowed_addresses: [], username: 'trunk-user' } }, secretKept: true },
    );
    await press('Refresh');
    const headers = [...document.querySelectorAll('[aria-label="Phone numbers"] th')].map((th) => th.textContent!.trim());
    const authCell = (number: string) => {
      const cells = [...document.querySelectorAll(`tr[data-number="${number}"] td`)];
      return cells[headers.indexOf('Allowed from')]!;
    };
    expect(headers.indexOf('Allowed from')).toBeGreaterThan(-1);
    expect([...authCell('+18005550101').querySelectorAll('.cidr')].map((c) => c.textContent)).toEqual(blocks);
    expect(authCell('+18005550101').textContent).not.toContain('any');
    expect(authCell('+18005550102').textContent!.trim()).toBe('any');
    expect(authCell('+18005550103').textContent!.replace(/\s+/g, ' ').trim()).toBe('any digest: trunk-user');

    // A number registered here shows the blocks it was registered with.
    await type('Name', 'Front desk');
    await type('Phone number', '+18005550199');
    await type('Allowed addresses (CIDR)', '203.0.113.0/24');
    await press('Register');
    expect([...authCell('+18005550199').querySelectorAll('.cidr')].map((c) => c.textContent)).toEqual(['203.0.113.0/24']);
  });

  it('keeps a secret given by hand for a number registered elsewhere', async () => {
    m = await mountWithApp(SipView, { route: '/sip' });
    m.fake.controls.sip.numbers.push({ number: { phone_number_id: 'pn_x', phone_number: '+18005550111', name: 'Elsewhere' }, secretKept: false });
    await press('Refresh');
    expect(document.querySelector('tr[data-number="+18005550111"]')?.textContent).toContain('not kept here');
    await type('Signing secret for +18005550111', 'whsec_c2VjcmV0c2VjcmV0');
    await press('Keep secret');
    expect(calls('sip.keepSecret')).toEqual([{ phoneNumberId: 'pn_x', phoneNumber: '+18005550111', secret: 'whsec_c2VjcmV0c2VjcmV0' }]);
    expect(document.querySelector('tr[data-number="+18005550111"]')?.textContent).toContain('Secret kept');
  });

  it('shows the service’s refusal as it says it', async () => {
    m = await mountWithApp(SipView, { route: '/sip' });
    const said = '+18005550199 is already registered (409: Phone number +18005550199 is already registered). It is not registered again: if your team registered it, it is in the list of numbers.';
    m.fake.controls.sip.failNextRegister = { code: 'api_error', status: 409, message: said };
    // Registered by this team from another window meanwhile: the list is read again after the 409.
    m.fake.controls.sip.numbers.push({ number: { phone_number_id: 'pn_y', phone_number: '+18005550199', name: 'Front desk' }, secretKept: true });
    expect(document.querySelector('tr[data-number="+18005550199"]')).toBeNull();
    await type('Name', 'Again');
    await type('Phone number', '+18005550199');
    await type('Allowed addresses (CIDR)', '203.0.113.0/24');
    await press('Register');
    expect(document.querySelector('[data-test="register-error"]')?.textContent).toBe(said);
    expect(document.querySelector('tr[data-number="+18005550199"]')).not.toBeNull();
  });

  it('rings a call: Answer says the console is missing, Decline declines it', async () => {
    m = await mountWithApp(SipView, { route: '/sip' });
    m.fake.controls.sip.ring(ringing);
    await flushPromises();
    const row = () => document.querySelector('[data-call="call_1"]');
    expect(row()?.getAttribute('data-state')).toBe('ringing');
    expect(row()?.textContent).toContain('+14155550100');
    await press('Answer');
    expect(alerts()).toEqual(expect.arrayContaining([expect.stringMatching(/call console is not available/)]));
    await press('Decline');
    expect(calls('sip.decline')).toEqual([{ callId: 'call_1' }]);
    expect(row()?.getAttribute('data-state')).toBe('declined');
  });

  it('while the console has a call, says so by the ringing call, and Answer asks before ending it', async () => {
    m = await mountWithApp(SipView, { route: '/sip' });
    const { id } = await m.fake.live.start({ kind: 'realtime', input: {} });
    useLiveSessionsStore().attach(id);
    m.fake.controls.sip.answerWith = 'live_rt_1';
    m.fake.controls.sip.ring(ringing);
    await flushPromises();
    const row = () => document.querySelector('[data-call="call_1"]')!;
    expect(row().querySelector('[data-test="console-busy"]')?.textContent).toBe('A call is already in the console.');
    await press('Answer');
    expect(calls('sip.answer')).toEqual([]);
    expect(row().querySelector('[data-test="answer-ask"]')?.textContent).toContain('Answering ends the call in the console. End it?');
    await press('Keep it and answer');
    expect(calls('sip.answer')).toEqual([{ callId: 'call_1' }]);
    expect([...m.fake.controls.live.sessions.keys()]).toEqual([id]);
    expect(document.querySelector('[role="status"]')?.textContent).toBe('Call call_1 answered; the console keeps its call, so this one\'s controls are here.');
  });

  it('checks a transfer target before sending it, then transfers an answered call', async () => {
    m = await mountWithApp(SipView, { route: '/sip' });
    m.fake.controls.sip.ring({ ...ringing, state: 'answered', mediaSessionId: 'live_rt' });
    await flushPromises();
    await type('Transfer target for call_1', 'tel:4155550123');
    await press('Transfer');
    expect(calls('sip.refer')).toEqual([]);
    expect(alerts()).toEqual(expect.arrayContaining([expect.stringMatching(/tel:/)]));
    await type('Transfer target for call_1', 'sip:agent@example.com');
    await press('Transfer');
    expect(calls('sip.refer')).toEqual([{ callId: 'call_1', target: 'sip:agent@example.com' }]);
  });

  it('shows the caller’s keys, and on the sandbox presses keys as the caller with the pad', async () => {
    m = await mountWithApp(SipView, { route: '/sip' });
    m.fake.controls.sip.ring({ ...ringing, state: 'answered', mediaSessionId: 'live_rt', digits: '4' });
    await flushPromises();
    const digits = () => document.querySelector('[data-call="call_1"] [data-test="dtmf-digits"]')?.textContent;
    expect(digits()).toBe('4');
    await press('Press 2');
    await press('Press #');
    expect(calls('sip.pressKeys')).toEqual([{ callId: 'call_1', digits: '2' }, { callId: 'call_1', digits: '#' }]);
    expect(digits()).toBe('42#');
  });

  it('has no pad on a real service (the caller presses their own phone), and says how a call ended', async () => {
    m = await mountWithApp(SipView, { route: '/sip' });
    m.fake.controls.sip.ring({ ...ringing, state: 'answered', mediaSessionId: 'live_rt', sandbox: false, digits: '7' });
    await flushPromises();
    expect(document.querySelector('[aria-label="Keypad for call_1"]')).toBeNull();
    expect(document.querySelector('[data-call="call_1"]')?.textContent).toContain('presses keys on their own phone');
    expect(document.querySelector('[data-call="call_1"] [data-test="dtmf-digits"]')?.textContent).toBe('7');
    m.fake.controls.sip.ring({ ...ringing, state: 'ended', sandbox: false, digits: '7', endReason: 'The call was ended by the other side: The caller hung up.' });
    await flushPromises();
    expect(document.querySelector('[data-call="call_1"]')?.getAttribute('data-state')).toBe('ended');
    expect(document.querySelector('[data-call="call_1"] [data-test="end-reason"]')?.textContent).toBe('The call was ended by the other side: The caller hung up. Keys pressed: 7');
  });

  it('says a dropped connection on an answered call, and clears it when the call is back', async () => {
    m = await mountWithApp(SipView, { route: '/sip' });
    const problem = () => document.querySelector('[data-call="call_1"] [data-test="call-problem"]')?.textContent ?? null;
    m.fake.controls.sip.ring({ ...ringing, state: 'answered', mediaSessionId: 'live_rt', problem: "The call's connection dropped. Reconnect from the call console (the service holds the caller for a short while) or hang up." });
    await flushPromises();
    expect(problem()).toMatch(/^The call's connection dropped\./);
    m.fake.controls.sip.ring({ ...ringing, state: 'answered', mediaSessionId: 'live_rt', problem: null });
    await flushPromises();
    expect(problem()).toBeNull();
  });
});
