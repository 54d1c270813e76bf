/**
 * The body of the control API's `POST /sandbox/calls` (a simulated inbound call), checked:
 *
 *   {"to": "+1…", "from": "+1…", "script": {"say": "…" | "audio_file_id": "file_…",
 *    "dtmf": [{"digit": "1", "at_ms": 2000}, …], "hangup_after_ms": 10000 | null,
 *    "wait_for_greeting": false}}
 *
 * `say` and `audio_file_id` exclude each other; with neither the caller is silent (keys only).
 * `hangup_after_ms` (a sandbox extension) is the silence after the script before the caller hangs
 * up, default 10 s; null: the caller never does (the agent ends the call). Statuses as elsewhere:
 * `wait_for_greeting` (a sandbox extension): the caller's audio starts only once the model's first
 * utterance has played out to them (or after 15 s of nobody speaking), as a person who picks up
 * and waits for the greeting; keys keep their times from the join.
 * 422 for the shape, 400 for a broken rule, every problem in one message.
 */
import { LIMITS } from '../../../shared/limits';
import { isObject, shape, value, type RequestViolation } from '../../../shared/validate/violations';
import { checkDigits, checkE164 } from './rules';

export const CALL_LIMITS = { dtmfEntries: 256, maxAtMs: 3_600_000, maxHangupAfterMs: 3_600_000, defaultHangupAfterMs: 10_000, pressDigits: 32 } as const;

export interface CallRequest {
  to: string;
  from: string;
  say: string | null;
  audioFileId: string | null;
  dtmf: Array<{ digit: string; atMs: number }>;
  hangupAfterMs: number | null;
  waitForGreeting: boolean;
}

function unknownFields(field: string, obj: Record<string, unknown>, known: string[], out: RequestViolation[]): void {
  const extra = Object.keys(obj).filter((k) => !known.includes(k));
  if (extra.length > 0) out.push(value(field, `${field} has fields the sandbox does not know: ${extra.join(', ')} (known: ${known.join(', ')})`));
}

function checkNumber(field: string, v: unknown, out: RequestViolation[]): string {
  if (v === undefined || v === null) {
    out.push(shape(field, `${field} is required: an E.164 number such as "+14155550100"`));
    return '';
  }
  const problem = checkE164(field, v);
  if (problem) out.push(typeof v === 'string' ? value(field, problem) : shape(field, problem));
  return problem ? '' : (v as string);
}

function checkKeys(v: unknown, out: RequestViolation[]): CallRequest['dtmf'] {
  if (!Array.isArray(v)) {
    out.push(shape('script.dtmf', 'script.dtmf must be an array of {"digit": "1", "at_ms": 2000}'));
    return [];
  }
  if (v.length > CALL_LIMITS.dtmfEntries) {
    out.push(value('script.dtmf', `script.dtmf has ${v.length} keys; at most ${CALL_LIMITS.dtmfEntries}`));
    return [];
  }
  const keys: CallRequest['dtmf'] = [];
  v.forEach((entry, i) => {
    const f = `script.dtmf[${i}]`;
    if (!isObject(entry)) return void out.push(shape(f, `${f} must be an object {"digit": "1", "at_ms": 2000}`));
    unknownFields(f, entry, ['digit', 'at_ms'], out);
    const { digit, at_ms: at } = entry;
    let ok = true;
    if (digit === undefined || digit === null || typeof digit !== 'string') {
      out.push(shape(`${f}.digit`, `${f}.digit is required: one key as a string (0-9, *, #, A-D)`));
      ok = false;
    } else {
      const problem = checkDigits(`${f}.digit`, digit, 1);
      if (problem) {
        out.push(value(`${f}.digit`, digit.length > 1 ? `${f}.digit must be one key; got ${JSON.stringify(digit.slice(0, 20))} (give each key its own entry)` : problem));
        ok = false;
      }
    }
    if (at === undefined || at === null || typeof at !== 'number' || !Number.isInteger(at)) {
      out.push(shape(`${f}.at_ms`, `${f}.at_ms is required: whole milliseconds from when the call is joined`));
      ok = false;
    } else if (at < 0 || at > CALL_LIMITS.maxAtMs) {
      out.push(value(`${f}.at_ms`, `${f}.at_ms must be from 0 to ${CALL_LIMITS.maxAtMs} (an hour); got ${at}`));
      ok = false;
    }
    if (ok) keys.push({ digit: (digit as string).toUpperCase(), atMs: at as number });
  });
  // Stable: keys at the same time keep the order given.
  return keys.sort((a, b) => a.atMs - b.atMs);
}

function checkScript(script: Record<string, unknown>, out: RequestViolation[], request: CallRequest): void {
  unknownFields('script', script, ['say', 'audio_file_id', 'dtmf', 'hangup_after_ms', 'wait_for_greeting'], out);
  const { say, audio_file_id: fileId, dtmf, hangup_after_ms: tail, wait_for_greeting: wait } = script;
  if (wait !== undefined && wait !== null) {
    if (typeof wait !== 'boolean') out.push(shape('script.wait_for_greeting', 'script.wait_for_greeting must be true or false'));
    else request.waitForGreeting = wait;
  }
  const hasSay = say !== undefined && say !== null;
  const hasFile = fileId !== undefined && fileId !== null;
  if (hasSay && hasFile) out.push(value('script', 'script takes say or audio_file_id, not both: the caller either speaks the text or plays the file'));
  if (hasSay) {
    if (typeof say !== 'string') out.push(shape('script.say', 'script.say must be a string: what the caller says'));
    else if (say.trim() === '') out.push(value('script.say', 'script.say must not be blank (leave it out for a silent caller)'));
    else if (say.length > LIMITS.ttsText.max) out.push(value('script.say', `script.say is ${say.length} characters long; the limit is ${LIMITS.ttsText.max}`));
    else request.say = say;
  }
  if (hasFile) {
    if (typeof fileId !== 'string' || fileId === '') out.push(shape('script.audio_file_id', 'script.audio_file_id must be the id of an uploaded audio file (POST /v1/files)'));
    else request.audioFileId = fileId;
  }
  if (dtmf !== undefined && dtmf !== null) request.dtmf = checkKeys(dtmf, out);
  if (tail === null) request.hangupAfterMs = null;
  else if (tail !== undefined) {
    if (typeof tail !== 'number' || !Number.isInteger(tail)) out.push(shape('script.hangup_after_ms', 'script.hangup_after_ms must be whole milliseconds, or null for a caller who never hangs up'));
    else if (tail < 0 || tail > CALL_LIMITS.maxHangupAfterMs) out.push(value('script.hangup_after_ms', `script.hangup_after_ms must be from 0 to ${CALL_LIMITS.maxHangupAfterMs}; got ${tail}`));
    else request.hangupAfterMs = tail;
  }
}

export function checkCallRequest(body: unknown): { request: CallRequest } | { status: 400 | 422; errors: string[] } {
  if (!isObject(body)) return { status: 422, errors: ['The body must be a JSON object: {"to": "+1…", "from": "+1…", "script": {"say": "…"}}'] };
  const out: RequestViolation[] = [];
  unknownFields('the body', body, ['to', 'from', 'script'], out);
  const request: CallRequest = { to: checkNumber('to', body.to, out), from: checkNumber('from', body.from, out), say: null, audioFileId: null, dtmf: [], hangupAfterMs: CALL_LIMITS.defaultHangupAfterMs, waitForGreeting: false };
  if (body.script === undefined || body.script === null) out.push(shape('script', 'script is required: {"say": "what the caller says"} or {"audio_file_id": "file_…"}, with optional "dtmf"'));
  else if (!isObject(body.script)) out.push(shape('script', 'script must be an object: {"say": "…"} or {"audio_file_id": "…"}, with optional "dtmf"'));
  else checkScript(body.script, out, request);
  if (out.length > 0) return { status: out.some((o) => o.kind === 'shape') ? 422 : 400, errors: out.map((o) => o.message) };
  return { request };
}
