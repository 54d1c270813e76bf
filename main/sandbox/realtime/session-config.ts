/**
 * A realtime session's effective configuration and every rule of `session.update` (wire-notes
 * §2.2): the hybrid placement (`voice`, `turn_detection`, `instructions`, `tools` at the top;
 * formats under `audio.input.format` / `audio.output.format`), with the OpenAI GA spots
 * `audio.input.turn_detection` and `audio.output.voice` accepted too. An update is checked whole:
 * any broken rule leaves the session as it was and every broken rule is reported. The same rules
 * check the `session` stored with a client secret.
 */
import { REALTIME_LIMITS, REALTIME_MODELS, REALTIME_PCM_RATES, REALTIME_REASONING_EFFORTS } from '../../../shared/wire/realtime';
import { isObject } from '../../../shared/validate/violations';
import { checkModalities, checkToolChoice, checkTools } from './session-tools';

export const DEFAULT_REALTIME_MODEL = 'svc-voice-latest';
export const DEFAULT_SILENCE_MS = 500;

export type AudioFormat = { type: 'audio/pcm'; rate: number } | { type: 'audio/pcmu' | 'audio/pcma'; rate: 8000 };

export interface TurnDetection {
  type: 'server_vad';
  threshold: number;
  prefix_padding_ms: number;
  silence_duration_ms: number;
  idle_timeout_ms: number | null;
  create_response: boolean;
  interrupt_response: boolean;
}

export interface FunctionTool {
  type: 'function';
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}
/** Function tools are normalised flat; the service's own tools (web_search, mcp, …) are kept as sent. */
export type SessionTool = FunctionTool | (Record<string, unknown> & { type: string });

export type ToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; name: string };
export type Modality = 'audio' | 'text';

export interface Transcription {
  model: string;
  language_hint: string | null;
  keyterms: string[];
}

export interface SessionConfig {
  id: string;
  object: 'realtime.session';
  model: string;
  reasoning: { effort: 'high' | 'none' };
  instructions: string;
  voice: string;
  output_modalities: Modality[];
  turn_detection: TurnDetection | null;
  input: { format: AudioFormat; transcription: Transcription | null };
  output: { format: AudioFormat; speed: number };
  tools: SessionTool[];
  tool_choice: ToolChoice;
  max_output_tokens: number | 'inf';
}

export interface SessionIssue {
  /** Dotted path from the event (`session.voice`). */
  param: string;
  code: 'invalid_value' | 'invalid_type' | 'unknown_parameter' | 'missing_required_parameter';
  message: string;
}

/** Whether a voice id names a built-in or one of the team's custom voices. */
export type VoiceCheck = (voiceId: string) => boolean;

export function defaultTurnDetection(): TurnDetection {
  return {
    type: 'server_vad',
    threshold: REALTIME_LIMITS.thresholdDefault,
    prefix_padding_ms: REALTIME_LIMITS.prefixPaddingMsDefault,
    silence_duration_ms: DEFAULT_SILENCE_MS,
    idle_timeout_ms: null,
    create_response: true,
    interrupt_response: true,
  };
}

export function defaultSession(id: string, model: string, effort: 'high' | 'none'): SessionConfig {
  return {
    id,
    object: 'realtime.session',
    model,
    reasoning: { effort },
    instructions: '',
    voice: 'eve',
    output_modalities: ['audio'],
    turn_detection: defaultTurnDetection(),
    input: { format: { type: 'audio/pcm', rate: 24000 }, transcription: null },
    output: { format: { type: 'audio/pcm', rate: 24000 }, speed: 1 },
    tools: [],
    tool_choice: 'auto',
    max_output_tokens: 'inf',
  };
}

/** The session as the wire shows it (`session.created`, `session.updated`): every effective value. */
export function sessionWire(s: SessionConfig): Record<string, unknown> {
  return {
    id: s.id,
    object: s.object,
    type: 'realtime',
    model: s.model,
    reasoning: s.reasoning,
    instructions: s.instructions,
    voice: s.voice,
    output_modalities: s.output_modalities,
    turn_detection: s.turn_detection,
    audio: {
      input: { format: s.input.format, transcription: s.input.transcription, turn_detection: s.turn_detection, transport: 'json' },
      output: { format: s.output.format, voice: s.voice, speed: s.output.speed, transport: 'json' },
    },
    tools: s.tools,
    tool_choice: s.tool_choice,
    max_output_tokens: s.max_output_tokens,
  };
}

const SESSION_FIELDS = ['type', 'id', 'object', 'model', 'reasoning', 'instructions', 'voice', 'turn_detection', 'audio', 'tools', 'tool_choice', 'output_modalities', 'modalities', 'max_output_tokens', 'max_response_output_tokens', 'temperature', 'resumption', 'replace', 'include', 'tracing'];

/** Checks an update against `current`; the new config, or every broken rule (the session unchanged). */
export function applySessionUpdate(current: SessionConfig, raw: unknown, voiceOk: VoiceCheck, base = 'session'): { config: SessionConfig } | { issues: SessionIssue[] } {
  const issues: SessionIssue[] = [];
  const bad = (param: string, message: string, code: SessionIssue['code'] = 'invalid_value') => issues.push({ param, code, message });
  if (!isObject(raw)) return { issues: [{ param: base, code: 'invalid_type', message: `${base} must be an object` }] };
  const next: SessionConfig = structuredClone(current);
  for (const key of Object.keys(raw)) if (!SESSION_FIELDS.includes(key)) bad(`${base}.${key}`, `Unknown parameter: '${base}.${key}'.`, 'unknown_parameter');
  if (raw.type !== undefined && raw.type !== 'realtime') bad(`${base}.type`, `${base}.type must be "realtime"`);
  if (raw.model !== undefined) {
    if (typeof raw.model !== 'string' || !(REALTIME_MODELS as readonly string[]).includes(raw.model)) bad(`${base}.model`, `${base}.model must be one of ${REALTIME_MODELS.join(', ')}; got ${JSON.stringify(raw.model)}`);
    else next.model = raw.model;
  }
  if (raw.reasoning !== undefined) {
    const effort = isObject(raw.reasoning) ? raw.reasoning.effort : undefined;
    if (typeof effort !== 'string' || !(REALTIME_REASONING_EFFORTS as readonly string[]).includes(effort)) bad(`${base}.reasoning.effort`, `${base}.reasoning.effort must be "high" or "none"; got ${JSON.stringify(effort ?? null)}`);
    else next.reasoning = { effort: effort as 'high' | 'none' };
  }
  if (raw.instructions !== undefined) {
    if (raw.instructions !== null && typeof raw.instructions !== 'string') bad(`${base}.instructions`, `${base}.instructions must be a string`, 'invalid_type');
    else next.instructions = raw.instructions ?? '';
  }
  const audio = raw.audio;
  if (audio !== undefined && !isObject(audio)) bad(`${base}.audio`, `${base}.audio must be an object`, 'invalid_type');
  const input = isObject(audio) ? audio.input : undefined;
  const output = isObject(audio) ? audio.output : undefined;
  if (isObject(audio)) for (const key of Object.keys(audio)) if (key !== 'input' && key !== 'output') bad(`${base}.audio.${key}`, `Unknown parameter: '${base}.audio.${key}'.`, 'unknown_parameter');
  if (input !== undefined && !isObject(input)) bad(`${base}.audio.input`, `${base}.audio.input must be an object`, 'invalid_type');
  if (output !== undefined && !isObject(output)) bad(`${base}.audio.output`, `${base}.audio.output must be an object`, 'invalid_type');
  const inputO = isObject(input) ? input : {};
  const outputO = isObject(output) ? output : {};
  for (const key of Object.keys(inputO)) if (!['format', 'transcription', 'turn_detection', 'transport', 'noise_reduction'].includes(key)) bad(`${base}.audio.input.${key}`, `Unknown parameter: '${base}.audio.input.${key}'.`, 'unknown_parameter');
  for (const key of Object.keys(outputO)) if (!['format', 'voice', 'speed', 'transport'].includes(key)) bad(`${base}.audio.output.${key}`, `Unknown parameter: '${base}.audio.output.${key}'.`, 'unknown_parameter');

  // Voice: top level, or the GA spot; both must agree.
  const voices: Array<[string, unknown]> = [];
  if (raw.voice !== undefined) voices.push([`${base}.voice`, raw.voice]);
  if (outputO.voice !== undefined) voices.push([`${base}.audio.output.voice`, outputO.voice]);
  for (const [param, v] of voices) {
    if (typeof v !== 'string') bad(param, `${param} must be a string`, 'invalid_type');
    else if (!voiceOk(v)) bad(param, `Unknown voice '${v}': use a built-in voice (eve, ara, rex, sal, leo) or one of your team's custom voices (GET /v1/custom-voices).`);
    else next.voice = v.toLowerCase();
  }
  if (voices.length === 2 && typeof voices[0][1] === 'string' && typeof voices[1][1] === 'string' && voices[0][1].toLowerCase() !== voices[1][1].toLowerCase()) {
    bad(`${base}.audio.output.voice`, `${base}.voice and ${base}.audio.output.voice disagree (${voices[0][1]} vs ${voices[1][1]}): give one`);
  }

  const turns: Array<[string, unknown]> = [];
  if (raw.turn_detection !== undefined) turns.push([`${base}.turn_detection`, raw.turn_detection]);
  if (inputO.turn_detection !== undefined) turns.push([`${base}.audio.input.turn_detection`, inputO.turn_detection]);
  for (const [param, t] of turns) {
    const checked = checkTurnDetection(t, param, bad);
    if (checked !== undefined) next.turn_detection = checked;
  }

  if (inputO.format !== undefined) {
    const f = checkFormat(inputO.format, `${base}.audio.input.format`, bad);
    if (f) next.input.format = f;
  }
  if (outputO.format !== undefined) {
    const f = checkFormat(outputO.format, `${base}.audio.output.format`, bad);
    if (f) next.output.format = f;
  }
  for (const [o, side] of [[inputO, 'input'], [outputO, 'output']] as const) {
    if (o.transport !== undefined && o.transport !== 'json') bad(`${base}.audio.${side}.transport`, `${base}.audio.${side}.transport must be "json" (binary frames are not supported by the sandbox); got ${JSON.stringify(o.transport)}`);
  }
  if (outputO.speed !== undefined) {
    const sp = outputO.speed;
    if (typeof sp !== 'number' || !Number.isFinite(sp)) bad(`${base}.audio.output.speed`, `${base}.audio.output.speed must be a number`, 'invalid_type');
    else if (sp < REALTIME_LIMITS.speedMin || sp > REALTIME_LIMITS.speedMax) bad(`${base}.audio.output.speed`, `${base}.audio.output.speed must be between ${REALTIME_LIMITS.speedMin} and ${REALTIME_LIMITS.speedMax}; got ${sp}`);
    else next.output.speed = sp;
  }
  if (inputO.transcription !== undefined) {
    const t = checkTranscription(inputO.transcription, `${base}.audio.input.transcription`, bad);
    if (t !== undefined) next.input.transcription = t;
  }

  const modalities = raw.output_modalities ?? raw.modalities;
  if (modalities !== undefined) {
    const param = `${base}.${raw.output_modalities !== undefined ? 'output_modalities' : 'modalities'}`;
    const m = checkModalities(modalities, param, bad);
    if (m) next.output_modalities = m;
  }
  if (raw.tools !== undefined) {
    const tools = checkTools(raw.tools, `${base}.tools`, bad);
    if (tools) next.tools = tools;
  }
  if (raw.tool_choice !== undefined) {
    const c = checkToolChoice(raw.tool_choice, `${base}.tool_choice`, bad);
    if (c) next.tool_choice = c;
  }
  const maxTokens = raw.max_output_tokens ?? raw.max_response_output_tokens;
  if (maxTokens !== undefined) {
    if (maxTokens === 'inf' || (Number.isInteger(maxTokens) && (maxTokens as number) >= 1 && (maxTokens as number) <= 4096)) next.max_output_tokens = maxTokens as number | 'inf';
    else bad(`${base}.max_output_tokens`, `${base}.max_output_tokens must be an integer from 1 to 4096 or "inf"; got ${JSON.stringify(maxTokens)}`);
  }
  if (raw.temperature !== undefined && (typeof raw.temperature !== 'number' || raw.temperature < 0.6 || raw.temperature > 1.2)) bad(`${base}.temperature`, `${base}.temperature must be a number from 0.6 to 1.2`);
  if (typeof next.tool_choice === 'object') {
    const name = next.tool_choice.name;
    if (!next.tools.some((t) => t.type === 'function' && t.name === name)) bad(`${base}.tool_choice`, `${base}.tool_choice names the function '${name}', which is not among the session's tools`);
  }
  return issues.length > 0 ? { issues } : { config: next };
}

export type Bad = (param: string, message: string, code?: SessionIssue['code']) => void;

function checkNumber(o: Record<string, unknown>, key: string, param: string, min: number, max: number, integer: boolean, bad: Bad): number | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || (integer && !Number.isInteger(v))) {
    bad(`${param}.${key}`, `${param}.${key} must be ${integer ? 'an integer' : 'a number'}`, 'invalid_type');
    return undefined;
  }
  if (v < min || v > max) {
    bad(`${param}.${key}`, `${param}.${key} must be between ${min} and ${max}${max === Infinity ? '' : ''}; got ${v}`);
    return undefined;
  }
  return v;
}

/** null = manual turns; an object replaces the whole setting (missing values take their defaults). */
function checkTurnDetection(t: unknown, param: string, bad: Bad): TurnDetection | null | undefined {
  if (t === null) return null;
  if (!isObject(t)) {
    bad(param, `${param} must be an object ({"type":"server_vad", …}) or null for manual turns`, 'invalid_type');
    return undefined;
  }
  const d = defaultTurnDetection();
  for (const key of Object.keys(t)) if (!['type', 'threshold', 'prefix_padding_ms', 'silence_duration_ms', 'idle_timeout_ms', 'create_response', 'interrupt_response'].includes(key)) bad(`${param}.${key}`, `Unknown parameter: '${param}.${key}'.`, 'unknown_parameter');
  if (t.type !== undefined && t.type !== 'server_vad') bad(`${param}.type`, `${param}.type must be "server_vad" (or set ${param} to null for manual turns); got ${JSON.stringify(t.type)}`);
  const threshold = checkNumber(t, 'threshold', param, REALTIME_LIMITS.thresholdMin, REALTIME_LIMITS.thresholdMax, false, bad);
  const prefix = checkNumber(t, 'prefix_padding_ms', param, 0, REALTIME_LIMITS.prefixPaddingMsMax, true, bad);
  const silence = checkNumber(t, 'silence_duration_ms', param, 0, REALTIME_LIMITS.silenceDurationMsMax, true, bad);
  const idle = t.idle_timeout_ms === null ? undefined : checkNumber(t, 'idle_timeout_ms', param, 0, Number.MAX_SAFE_INTEGER, true, bad);
  for (const key of ['create_response', 'interrupt_response'] as const) {
    if (t[key] !== undefined && typeof t[key] !== 'boolean') bad(`${param}.${key}`, `${param}.${key} must be true or false`, 'invalid_type');
    else if (typeof t[key] === 'boolean') d[key] = t[key];
  }
  return { ...d, threshold: threshold ?? d.threshold, prefix_padding_ms: prefix ?? d.prefix_padding_ms, silence_duration_ms: silence ?? d.silence_duration_ms, idle_timeout_ms: idle ?? null };
}

function checkFormat(f: unknown, param: string, bad: Bad): AudioFormat | undefined {
  if (!isObject(f)) {
    bad(param, `${param} must be an object like {"type":"audio/pcm","rate":24000}`, 'invalid_type');
    return undefined;
  }
  const rate = f.rate;
  if (f.type === 'audio/pcm') {
    if (rate === undefined) return { type: 'audio/pcm', rate: 24000 };
    if ((REALTIME_PCM_RATES as readonly unknown[]).includes(rate)) return { type: 'audio/pcm', rate: rate as number };
    bad(`${param}.rate`, `${param}.rate must be one of ${REALTIME_PCM_RATES.join(', ')} for audio/pcm; got ${JSON.stringify(rate)}`);
    return undefined;
  }
  if (f.type === 'audio/pcmu' || f.type === 'audio/pcma') {
    if (rate === undefined || rate === 8000) return { type: f.type, rate: 8000 };
    bad(`${param}.rate`, `${param}.rate must be 8000 for ${f.type} (G.711); got ${JSON.stringify(rate)}`);
    return undefined;
  }
  if (f.type === 'audio/opus') bad(`${param}.type`, `${param}.type audio/opus is not supported by the sandbox: use audio/pcm, audio/pcmu or audio/pcma`);
  else bad(`${param}.type`, `${param}.type must be one of audio/pcm, audio/pcmu, audio/pcma; got ${JSON.stringify(f.type ?? null)}`);
  return undefined;
}

function checkTranscription(t: unknown, param: string, bad: Bad): Transcription | null | undefined {
  if (t === null) return null;
  if (!isObject(t)) {
    bad(param, `${param} must be an object ({"model":"svc-transcribe"}) or null`, 'invalid_type');
    return undefined;
  }
  for (const key of Object.keys(t)) if (!['model', 'language_hint', 'language', 'keyterms', 'prompt'].includes(key)) bad(`${param}.${key}`, `Unknown parameter: '${param}.${key}'.`, 'unknown_parameter');
  const model = t.model ?? 'svc-transcribe';
  if (typeof model !== 'string' || model === '') bad(`${param}.model`, `${param}.model must be a model name such as "svc-transcribe"`);
  const hint = t.language_hint ?? t.language ?? null;
  if (hint !== null && (typeof hint !== 'string' || !/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/.test(hint))) bad(`${param}.language_hint`, `${param}.language_hint must be a BCP-47 language tag such as "en"; got ${JSON.stringify(hint)}`);
  const keyterms = t.keyterms ?? [];
  if (!Array.isArray(keyterms) || keyterms.some((k) => typeof k !== 'string' || k.length === 0)) bad(`${param}.keyterms`, `${param}.keyterms must be an array of non-empty strings`, 'invalid_type');
  else if (keyterms.length > REALTIME_LIMITS.keytermsMax) bad(`${param}.keyterms`, `${param}.keyterms holds ${keyterms.length} terms; at most ${REALTIME_LIMITS.keytermsMax}`);
  else {
    const long = (keyterms as string[]).find((k) => [...k].length > REALTIME_LIMITS.keytermCharsMax);
    if (long) bad(`${param}.keyterms`, `${param}.keyterms has a term of ${[...long].length} characters ("${long.slice(0, 20)}…"); each at most ${REALTIME_LIMITS.keytermCharsMax}`);
  }
  return { model: String(model), language_hint: typeof hint === 'string' ? hint : null, keyterms: Array.isArray(keyterms) ? (keyterms as string[]) : [] };
}
