/**
 * The control API's calls over HTTP: POST /sandbox/calls with every rule and its message, the
 * call's status, DTMF presses (refused while ringing, sent at the current point once joined, bad
 * keys refused), and the service's refer / hangup endpoints (target validated, 409 when not live).
 * The call is joined through `sandbox.calls` as the realtime socket would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallEnd } from '../../../../../main/sandbox/sip/call-link';
import { OTHER_KEY, startHarness, type Harness } from '../harness';
import { uploadFile } from '../routes/files-form';

let h: Harness;
const NUMBER = '+18005550111';
beforeAll(async () => {
  // Nobody listens on port 9: the webhook fails fast and retries are not the subject here.
  h = await startHarness({ sip: { webhookRetryDelaysMs: [] } });
  const res = await h.post('/v2/phone-numbers', { origin: 'byo_trunk', name: 'Line', phone_number: NUMBER, webhook: { url: 'http://127.0.0.1:9/hook' }, sip_auth: { allowed_addresses: ['127.0.0.0/8'] } });
  expect(res.status).toBe(200);
});
afterAll(() => h.sandbox.close());

async function refused(body: unknown, status: number, path = '/sandbox/calls'): Promise<string> {
  const res = await h.post(path, body);
  expect(res.status).toBe(status);
  return ((await res.json()) as { error: string }).error;
}

const place = async (script: Record<string, unknown> = { say: 'Hi.', hangup_after_ms: null }) => {
  const res = await h.post('/sandbox/calls', { to: NUMBER, from: '+14155550100', script });
  expect(res.status).toBe(200);
  return ((await res.json()) as { call_id: string }).call_id;
};

function join(callId: string) {
  const keys: string[] = [];
  const ends: CallEnd[] = [];
  let frames = 0;
  const link = h.sandbox.calls.find(callId, 'team-a');
  if (!link) throw new Error('no call');
  const joined = link.join({ audio: () => void frames++, dtmf: (d) => void keys.push(d), ended: (e) => void ends.push(e) });
  if (!joined.ok) throw new Error(joined.message);
  return { link, call: joined.call, keys, ends, frames: () => frames };
}

describe('POST /sandbox/calls', () => {
  it('places a call to a registered number: {call_id}, ringing, its webhook attempted', async () => {
    const id = await place();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const status = (await (await h.get(`/sandbox/calls/${id}`)).json()) as Record<string, any>;
    expect(status).toMatchObject({ call_id: id, from: '+14155550100', to: NUMBER, state: 'ringing', ended: null, elapsed_ms: null, webhook: { url: 'http://127.0.0.1:9/hook' } });
    expect(status.webhook.webhook_id).toMatch(/^msg_[0-9a-f]{32}$/);
    // Another team does not see it, through HTTP or the directory.
    const other = await fetch(`${h.sandbox.url}/sandbox/calls/${id}`, { headers: { authorization: `Bearer ${OTHER_KEY}` } });
    expect(other.status).toBe(404);
    expect(h.sandbox.calls.find(id, 'team-b')).toBeUndefined();
  });

  it('refuses an unregistered number, and another team\'s', async () => {
    expect(await refused({ to: '+18005550112', from: '+14155550100', script: { say: 'x' } }, 404)).toBe('to: +18005550112 is not one of your team\'s phone numbers: register it first (POST /v2/phone-numbers), then call it.');
    const res = await fetch(`${h.sandbox.url}/sandbox/calls`, { method: 'POST', headers: { authorization: `Bearer ${OTHER_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ to: NUMBER, from: '+14155550100', script: { say: 'x' } }) });
    expect(res.status).toBe(404);
  });

  it('answers 422 for the shape and 400 for broken rules, each with its message', async () => {
    const ok = { to: NUMBER, from: '+14155550100' };
    expect(await refused('[]', 422)).toMatch(/^The body must be a JSON object/);
    expect(await refused({}, 422)).toBe('to is required: an E.164 number such as "+14155550100"; from is required: an E.164 number such as "+14155550100"; script is required: {"say": "what the caller says"} or {"audio_file_id": "file_…"}, with optional "dtmf"');
    expect(await refused({ ...ok, to: '8005550111', script: { say: 'x' } }, 400)).toMatch(/^to "8005550111" is not an E\.164 phone number/);
    expect(await refused({ ...ok, from: '+1 415 555 0100', script: { say: 'x' } }, 400)).toMatch(/^from "\+1 415 555 0100" is not an E\.164 phone number.*did you mean "\+14155550100"/);
    expect(await refused({ ...ok, script: 'hello' }, 422)).toMatch(/^script must be an object/);
    expect(await refused({ ...ok, script: { say: 'x', audio_file_id: 'file_1' } }, 400)).toBe('script takes say or audio_file_id, not both: the caller either speaks the text or plays the file');
    expect(await refused({ ...ok, script: { say: '  ' } }, 400)).toBe('script.say must not be blank (leave it out for a silent caller)');
    expect(await refused({ ...ok, script: { say: 5 } }, 422)).toBe('script.say must be a string: what the caller says');
    expect(await refused({ ...ok, script: { say: 'x'.repeat(60_001) } }, 400)).toBe('script.say is 60001 characters long; the limit is 60000');
    expect(await refused({ ...ok, script: { audio_file_id: 7 } }, 422)).toMatch(/^script.audio_file_id must be the id of an uploaded audio file/);
    expect(await refused({ ...ok, script: { audio_file_id: 'file_nope' } }, 404)).toMatch(/^script.audio_file_id: .*file_nope/);
    expect(await refused({ ...ok, script: { dtmf: 'x' } }, 422)).toMatch(/^script.dtmf must be an array/);
    expect(await refused({ ...ok, script: { dtmf: [{ digit: 'x', at_ms: 5 }, { digit: '12', at_ms: 5 }, { digit: '1', at_ms: -1 }, { digit: '1', at_ms: 3_600_001 }] } }, 400)).toBe(
      'script.dtmf[0].digit "x" has keys a keypad does not have ("x"): use 0-9, *, # and A-D; script.dtmf[1].digit must be one key; got "12" (give each key its own entry); script.dtmf[2].at_ms must be from 0 to 3600000 (an hour); got -1; script.dtmf[3].at_ms must be from 0 to 3600000 (an hour); got 3600001',
    );
    expect(await refused({ ...ok, script: { dtmf: [{ digit: 1, at_ms: 5 }] } }, 422)).toBe('script.dtmf[0].digit is required: one key as a string (0-9, *, #, A-D)');
    expect(await refused({ ...ok, script: { dtmf: [{ digit: '1', at_ms: 1.5 }] } }, 422)).toBe('script.dtmf[0].at_ms is required: whole milliseconds from when the call is joined');
    expect(await refused({ ...ok, script: { dtmf: [{ digit: '1', at_ms: 5, tone: 1 }] } }, 400)).toMatch(/^script.dtmf\[0\] has fields the sandbox does not know: tone/);
    expect(await refused({ ...ok, script: { dtmf: Array.from({ length: 257 }, () => ({ digit: '1', at_ms: 0 })) } }, 400)).toBe('script.dtmf has 257 keys; at most 256');
    expect(await refused({ ...ok, script: { hangup_after_ms: -1 } }, 400)).toBe('script.hangup_after_ms must be from 0 to 3600000; got -1');
    expect(await refused({ ...ok, script: { hangup_after_ms: '5' } }, 422)).toMatch(/^script.hangup_after_ms must be whole milliseconds/);
    expect(await refused({ ...ok, script: { wait_for_greeting: 'yes' } }, 422)).toBe('script.wait_for_greeting must be true or false');
    expect(await refused({ ...ok, script: { voice: 'eve' } }, 400)).toBe('script has fields the sandbox does not know: voice (known: say, audio_file_id, dtmf, hangup_after_ms, wait_for_greeting)');
    expect(await refused({ ...ok, script: {}, call_id: 'x' }, 400)).toBe('the body has fields the sandbox does not know: call_id (known: to, from, script)');
  });

  it('refuses a file that is not audio, naming it', async () => {
    const file = await uploadFile(h, 'notes.txt', 'just some text, not audio at all');
    expect(await refused({ to: NUMBER, from: '+14155550100', script: { audio_file_id: file.id } }, 400)).toMatch(new RegExp(`^script.audio_file_id ${file.id} cannot be the caller's audio: The file is not audio`));
  });
});

describe('DTMF presses, refer and hangup', () => {
  it('refuses keys while ringing; once joined sends them at the current point, in order', async () => {
    const id = await place();
    expect(await refused({ digits: '1' }, 409, `/sandbox/calls/${id}/dtmf`)).toBe(`Call ${id} has not been answered yet: join it first (/v1/realtime?call_id=${id}).`);
    const j = join(id);
    const res = await h.post(`/sandbox/calls/${id}/dtmf`, { digits: '12#' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { digits: string; at_ms: number };
    expect(body.digits).toBe('12#');
    expect(body.at_ms).toBeGreaterThanOrEqual(0);
    await h.post(`/sandbox/calls/${id}/dtmf`, { digits: 'a*' });
    expect(j.keys).toEqual(['1', '2', '#', 'A', '*']);
    expect(await refused({ digits: '1x' }, 400, `/sandbox/calls/${id}/dtmf`)).toBe('digits "1x" has keys a keypad does not have ("x"): use 0-9, *, # and A-D');
    expect(await refused({ digits: 12 }, 422, `/sandbox/calls/${id}/dtmf`)).toMatch(/^The body must be \{"digits": "12#"\}/);
    expect(await refused({ digits: '1', at: 0 }, 400, `/sandbox/calls/${id}/dtmf`)).toMatch(/does not know: at/);
    expect(await refused({ digits: '1' }, 404, '/sandbox/calls/nope/dtmf')).toMatch(/^Call nope does not exist/);
    const status = (await (await h.get(`/sandbox/calls/${id}`)).json()) as Record<string, any>;
    expect(status.state).toBe('joined');
    expect(status.caller.dtmf_sent.map((k: { digit: string }) => k.digit).join('')).toBe('12#A*');
    j.call.hangup();
  });

  it('refer: 409 while ringing, 400 for a bad target (the call goes on), {} and the end for a good one, 409 after', async () => {
    const id = await place();
    expect(await refused({ target_uri: 'tel:+14155550123' }, 409, `/v1/realtime/calls/${id}/refer`)).toMatch(/has not been answered yet/);
    const j = join(id);
    expect(await refused({}, 422, `/v1/realtime/calls/${id}/refer`)).toMatch(/^target_uri is required/);
    expect(await refused({ target_uri: 'sip:nobody' }, 400, `/v1/realtime/calls/${id}/refer`)).toBe('target_uri "sip:nobody" has no user: a SIP target is "sip:user@host"');
    expect(j.link.state).toBe('joined');
    const res = await h.post(`/v1/realtime/calls/${id}/refer`, { target_uri: 'tel:+14155550123' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    expect(j.ends).toEqual([expect.objectContaining({ reason: 'referred', target: 'tel:+14155550123' })]);
    expect(await refused({ target_uri: 'tel:+14155550123' }, 409, `/v1/realtime/calls/${id}/refer`)).toMatch(/has ended \(referred\)/);
    const status = (await (await h.get(`/sandbox/calls/${id}`)).json()) as Record<string, any>;
    expect(status.ended).toMatchObject({ reason: 'referred', target_uri: 'tel:+14155550123' });
  });

  it('hangup ends a joined call ({}), declines a ringing one, and is 409 once ended', async () => {
    const id = await place();
    const j = join(id);
    const res = await fetch(`${h.sandbox.url}/v1/realtime/calls/${id}/hangup`, { method: 'POST', headers: { authorization: `Bearer ${h.sandbox.keys[0]}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    expect(j.ends.map((e) => e.reason)).toEqual(['hangup']);
    expect(await refused(undefined, 409, `/v1/realtime/calls/${id}/hangup`)).toMatch(/has ended \(hangup\)/);
    const ringing = await place();
    expect((await h.post(`/v1/realtime/calls/${ringing}/hangup`, {})).status).toBe(200);
    expect(h.sandbox.calls.find(ringing, 'team-a')?.state).toBe('ended');
    expect(await refused(undefined, 404, '/v1/realtime/calls/nope/hangup')).toMatch(/^Call nope does not exist/);
  });
});

describe('closing the sandbox', () => {
  it('ends a joined call (sandbox_closed) and a ringing one', async () => {
    const other = await startHarness({ sip: { webhookRetryDelaysMs: [] } });
    await other.post('/v2/phone-numbers', { origin: 'svc_provisioned', name: 'Closing', phone_number: '+18005550188', webhook: { url: 'http://127.0.0.1:9/hook' } });
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await other.post('/sandbox/calls', { to: '+18005550188', from: '+14155550100', script: {} });
      ids.push(((await res.json()) as { call_id: string }).call_id);
    }
    const ends: CallEnd[] = [];
    const [joinedLink, ringingLink] = ids.map((id) => other.sandbox.calls.find(id, 'team-a'));
    joinedLink?.join({ audio: () => undefined, dtmf: () => undefined, ended: (e) => void ends.push(e) });
    await other.sandbox.close();
    expect(ends).toEqual([expect.objectContaining({ reason: 'sandbox_closed', message: 'The sandbox closed.' })]);
    expect(joinedLink?.state).toBe('ended');
    expect(ringingLink?.state).toBe('ended');
  });
});
