/**
 * Calls over HTTP. Control API (loopback sandboxes, same keys): `POST /sandbox/calls` places a
 * simulated inbound call to one of the team's numbers -> `{call_id}`; `POST /sandbox/calls/{id}/dtmf
 * {"digits": "12#"}` presses keys on a joined call; `GET /sandbox/calls/{id}` shows the call, how
 * it ended and every webhook attempt. Service (wire-notes §6.3): `POST /v1/realtime/calls/{id}/refer
 * {"target_uri"}` and `POST /v1/realtime/calls/{id}/hangup` -> `{}`.
 */
import { isObject } from '../../../shared/is-object';
import { SandboxError } from '../errors';
import { sendJson, type Route } from '../route';
import { CALL_LIMITS, checkCallRequest } from './call-request';
import { checkDigits } from './rules';
import type { PlacedCall, SipService } from './service';

function notFound(id: string): SandboxError {
  return new SandboxError(404, `Call ${id} does not exist (or belongs to another team): place one with POST /sandbox/calls.`);
}

function callOf(sip: SipService, id: string, team: string): PlacedCall {
  const placed = sip.placed(id, team);
  if (!placed) throw notFound(id);
  return placed;
}

async function status(placed: PlacedCall): Promise<Record<string, unknown>> {
  const { call, delivery } = placed;
  const end = call.outcome;
  const heard = await call.ear.report(call.elapsedMs() ?? 0);
  return {
    call_id: call.callId,
    from: call.from,
    to: call.to,
    phone_number_id: placed.phoneNumberId,
    created_at: Math.floor(placed.createdAt / 1000),
    state: call.state,
    elapsed_ms: call.elapsedMs() === null ? null : Math.round(call.elapsedMs() as number),
    ended: end && { reason: end.reason, message: end.message, at_ms: end.atMs, ...(end.target === undefined ? {} : { target_uri: end.target }) },
    caller: {
      frames_sent: call.sent.frames,
      script_started_at_ms: call.scriptStartedAtMs,
      dtmf_sent: call.sent.keys.map((k) => ({ digit: k.digit, at_ms: k.atMs })),
      // What the caller heard of the model: played by now, delivered (queued included), each utterance on the call's timeline.
      heard: {
        ms: heard.ms,
        received_ms: heard.receivedMs,
        interruptions: heard.interruptions,
        utterances: heard.utterances.map((u) => ({ start_ms: u.startMs, end_ms: u.endMs })),
        rms_dbfs: heard.rmsDbfs,
        transcript: heard.transcript,
      },
    },
    webhook: { webhook_id: delivery.webhookId, url: delivery.url, state: delivery.state, attempts: delivery.attempts },
  };
}

/** 409 with why a call cannot take this now (ringing or ended), else the action's result. */
function act(result: { ok: true } | { ok: false; message: string }): void {
  if (!result.ok) throw new SandboxError(409, result.message);
}

export function callControlRoutes(sip: SipService): Route[] {
  return [
    {
      method: 'POST',
      path: '/sandbox/calls',
      async handle({ res, body, team }) {
        const checked = checkCallRequest(body);
        if ('errors' in checked) throw new SandboxError(checked.status, checked.errors.join('; '));
        const placed = await sip.place(team, checked.request);
        if (!placed.ok) throw new SandboxError(placed.status, placed.message);
        sendJson(res, 200, { call_id: placed.placed.call.callId });
      },
    },
    { method: 'GET', path: '/sandbox/calls/:call_id', handle: async ({ res, params, team }) => sendJson(res, 200, await status(callOf(sip, params.call_id, team))) },
    {
      method: 'POST',
      path: '/sandbox/calls/:call_id/dtmf',
      handle({ res, body, params, team }) {
        const { call } = callOf(sip, params.call_id, team);
        if (!isObject(body) || typeof body.digits !== 'string') throw new SandboxError(422, 'The body must be {"digits": "12#"}: the keys to press, as a string.');
        const extra = Object.keys(body).filter((k) => k !== 'digits');
        if (extra.length > 0) throw new SandboxError(400, `The body has fields the sandbox does not know: ${extra.join(', ')} (known: digits)`);
        const problem = checkDigits('digits', body.digits, CALL_LIMITS.pressDigits);
        if (problem) throw new SandboxError(400, problem);
        act(call.press(body.digits));
        const keys = call.sent.keys.slice(-body.digits.length);
        sendJson(res, 200, { call_id: call.callId, digits: keys.map((k) => k.digit).join(''), at_ms: keys[0].atMs });
      },
    },
  ];
}

export function callServiceRoutes(sip: SipService): Route[] {
  return [
    {
      method: 'POST',
      path: '/v1/realtime/calls/:call_id/refer',
      handle({ res, body, params, team }) {
        const { call } = callOf(sip, params.call_id, team);
        if (!isObject(body) || body.target_uri === undefined || body.target_uri === null) throw new SandboxError(422, 'target_uri is required: {"target_uri": "tel:+14155550123"} or {"target_uri": "sip:agent@example.com"}');
        if (typeof body.target_uri !== 'string') throw new SandboxError(422, 'target_uri must be a string');
        const result = call.refer(body.target_uri);
        // Refused while joined: the target is invalid (400); else the call is not live (409).
        if (!result.ok) throw new SandboxError(call.state === 'joined' ? 400 : 409, result.message);
        sendJson(res, 200, {});
      },
    },
    {
      method: 'POST',
      path: '/v1/realtime/calls/:call_id/hangup',
      // No body is sent; one that is sent is not read.
      body: 'none',
      handle({ res, params, team }) {
        const { call } = callOf(sip, params.call_id, team);
        // A ringing call hung up is declined: it ends without being answered.
        if (call.state === 'ringing') call.end('hangup', 'The call was declined before it was answered.');
        else act(call.hangup());
        sendJson(res, 200, {});
      },
    },
  ];
}
