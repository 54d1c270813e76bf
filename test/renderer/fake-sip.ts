/**
 * The `sip` family of the fake workbench: numbers held in memory, register answering a secret
 * (409 for a number already there, in the sandbox's words), the receiver's status, and controls to
 * ring a call and emit receiver changes as main does.
 */
import type { FamilyApi } from '../../shared/contract/api';
import { WorkbenchFailure, type WorkbenchError } from '../../shared/contract/errors';
import type { SipNumber, SipReceiverStatus, SipCall, sipContract } from '../../shared/families/sip/contract';

export interface FakeSipControls {
  numbers: SipNumber[];
  receiver: SipReceiverStatus;
  /** Makes the next register reject with this error (the service's refusal). */
  failNextRegister: WorkbenchError | null;
  /** Calls `sip.calls` lists; `ring` adds one and emits it. */
  calls: SipCall[];
  /** What `sip.answer` does: null answers like main without a console (refused). */
  answerWith: string | null;
  ring(call: SipCall): void;
  emitReceiver(status: SipReceiverStatus): void;
}

export const fakeReceiver = (patch: Partial<SipReceiverStatus> = {}): SipReceiverStatus => ({
  state: 'stopped',
  url: null,
  port: null,
  problem: null,
  counts: { handled: 0, duplicate: 0, ignored: 0, refused: 0, malformed: 0, failed: 0 },
  recent: [],
  ...patch,
});

export function createFakeSip(record: (method: string, input: unknown) => void): { api: FamilyApi<typeof sipContract>; controls: FakeSipControls } {
  const changed = new Set<(c: SipCall) => void>();
  const receivers = new Set<(s: SipReceiverStatus) => void>();
  const listening = () => fakeReceiver({ state: 'listening', port: 45123, url: 'http://127.0.0.1:45123/webhooks/sip' });
  const controls: FakeSipControls = {
    numbers: [],
    receiver: fakeReceiver(),
    failNextRegister: null,
    calls: [],
    answerWith: null,
    ring: (c) => {
      controls.calls = [...controls.calls.filter((x) => x.callId !== c.callId), c];
      changed.forEach((l) => l(c));
    },
    emitReceiver: (s) => {
      controls.receiver = s;
      receivers.forEach((l) => l(s));
    },
  };
  let n = 0;
  const api: FamilyApi<typeof sipContract> = {
    onCallChanged: (cb) => (changed.add(cb), () => changed.delete(cb)),
    calls: async (input) => (record('sip.calls', input), [...controls.calls]),
    answer: async (input) => {
      record('sip.answer', input);
      if (controls.answerWith === null) throw new WorkbenchFailure({ code: 'invalid_input', message: 'The call console is not available in this workbench (it runs no media process for live audio), so the call cannot be answered here. Decline it or transfer it.' });
      const call = controls.calls.find((c) => c.callId === input.callId);
      if (call) controls.ring({ ...call, state: 'answered', mediaSessionId: controls.answerWith });
      return { mediaSessionId: controls.answerWith };
    },
    decline: async (input) => {
      record('sip.decline', input);
      const call = controls.calls.find((c) => c.callId === input.callId);
      if (call) controls.ring({ ...call, state: 'declined' });
      return { ok: true };
    },
    onReceiverChanged: (cb) => (receivers.add(cb), () => receivers.delete(cb)),
    numbers: async (input) => (record('sip.numbers', input), { connectionId: 'sandbox', numbers: [...controls.numbers], receiver: controls.receiver }),
    receiver: async (input) => (record('sip.receiver', input), controls.receiver),
    startReceiver: async (input) => {
      record('sip.startReceiver', input);
      controls.receiver = listening();
      return controls.receiver;
    },
    register: async (input) => {
      record('sip.register', input);
      const failure = controls.failNextRegister;
      controls.failNextRegister = null;
      if (failure) throw new WorkbenchFailure(failure);
      if (!input.webhookUrl) controls.receiver = listening();
      const number = { phone_number_id: `pn_fake${++n}`, phone_number: input.phoneNumber ?? '+18005550100', name: input.name, origin: input.origin, sip_auth: { allowed_addresses: input.allowedAddresses ?? [] } };
      controls.numbers.push({ number, secretKept: true });
      return { number, signingSecret: `whsec_fakesecret${n}`, secret: { stored: true, backend: 'file', warning: null }, receiver: controls.receiver };
    },
    keepSecret: async (input) => (record('sip.keepSecret', input), { rotated: false, until: null, secret: { stored: true, backend: 'file', warning: null } }),
    refer: async (input) => (record('sip.refer', input), { ok: true }),
    hangup: async (input) => (record('sip.hangup', input), { ok: true }),
    pressKeys: async (input) => {
      record('sip.pressKeys', input);
      const call = controls.calls.find((c) => c.callId === input.callId);
      if (call && !call.sandbox) throw new WorkbenchFailure({ code: 'invalid_input', message: 'Keys can only be pressed for the caller on a sandbox.' });
      // As main: the keys come back once the service reports them.
      if (call) controls.ring({ ...call, digits: call.digits + input.digits });
      return { ok: true };
    },
  };
  return { api, controls };
}
