/**
 * The rules of a text-to-speech request: the `POST /v1/tts` JSON body (wire-notes §3.1) and the
 * WebSocket `/v1/tts` query (spec table), checked into one `TtsSettings`. Each broken rule is a
 * violation naming its field; the route answers 422 when any is about the body's shape (wrong JSON
 * type, unknown enum value) and 400 otherwise. A missing `language` is a 400, as the service was
 * seen to answer (wire-notes §3.1).
 */
import { LIMITS } from '../../../shared/limits';
import { shape, value, type RequestViolation } from '../../../shared/validate/violations';
import { TTS_BIT_RATES, TTS_CODECS, TTS_SAMPLE_RATES, type OutputFormat } from './codecs';
import { DEFAULT_VOICE } from './voice-profiles';

export interface TtsSettings {
  voice: string;
  language: string;
  format: OutputFormat;
  speed: number;
  optimizeStreamingLatency: number;
  textNormalization: boolean;
  withTimestamps: boolean;
}

const DEFAULTS = { codec: 'mp3', sampleRate: 24000, bitRate: 128000 } as const;

const BODY_FIELDS = ['text', 'language', 'voice_id', 'output_format', 'speed', 'optimize_streaming_latency', 'text_normalization', 'with_timestamps', 'replace'];
const FORMAT_FIELDS = ['codec', 'sample_rate', 'bit_rate'];

function list(values: readonly (string | number)[]): string {
  return values.join(', ');
}

/** Checks a codec / rate / bit rate triple, whatever it came from. */
function checkFormat(codec: unknown, sampleRate: unknown, bitRate: unknown, prefix: string, out: RequestViolation[]): OutputFormat {
  const f = { codec: DEFAULTS.codec as OutputFormat['codec'], sampleRate: DEFAULTS.sampleRate as number, bitRate: DEFAULTS.bitRate as number };
  if (codec !== undefined && codec !== null) {
    if (typeof codec !== 'string' || !(TTS_CODECS as readonly string[]).includes(codec.toLowerCase())) {
      out.push(shape(`${prefix}codec`, `${prefix}codec must be one of ${list(TTS_CODECS)}; got ${JSON.stringify(codec)}`));
    } else {
      const c = codec.toLowerCase();
      f.codec = (c === 'ulaw' ? 'mulaw' : c) as OutputFormat['codec'];
    }
  }
  if (sampleRate !== undefined && sampleRate !== null) {
    if (typeof sampleRate !== 'number' || !Number.isInteger(sampleRate)) out.push(shape(`${prefix}sample_rate`, `${prefix}sample_rate must be an integer (Hz)`));
    else if (!(TTS_SAMPLE_RATES as readonly number[]).includes(sampleRate)) out.push(value(`${prefix}sample_rate`, `${prefix}sample_rate must be one of ${list(TTS_SAMPLE_RATES)}; got ${sampleRate}`));
    else f.sampleRate = sampleRate;
  }
  if (bitRate !== undefined && bitRate !== null) {
    if (typeof bitRate !== 'number' || !Number.isInteger(bitRate)) out.push(shape(`${prefix}bit_rate`, `${prefix}bit_rate must be an integer (bits per second)`));
    else if (!(TTS_BIT_RATES as readonly number[]).includes(bitRate)) out.push(value(`${prefix}bit_rate`, `${prefix}bit_rate must be one of ${list(TTS_BIT_RATES)}; got ${bitRate}`));
    else f.bitRate = bitRate;
  }
  return f;
}

function checkCommon(
  raw: { voice: unknown; language: unknown; speed: unknown; osl: unknown; norm: unknown; ts: unknown },
  names: { voice: string },
  out: RequestViolation[],
): Omit<TtsSettings, 'format'> {
  const s = { voice: DEFAULT_VOICE, language: '', speed: 1, optimizeStreamingLatency: 0, textNormalization: false, withTimestamps: false };
  if (raw.voice !== undefined && raw.voice !== null) {
    if (typeof raw.voice !== 'string') out.push(shape(names.voice, `${names.voice} must be a string`));
    else if (raw.voice.trim() === '') out.push(value(names.voice, `${names.voice} must not be empty: give a built-in voice (eve, ara, rex, sal, leo) or a custom voice id`));
    else if (!/^[A-Za-z0-9_-]{1,64}$/.test(raw.voice)) out.push(value(names.voice, `${names.voice} "${raw.voice.slice(0, 80)}" is not a voice id (letters, digits, - and _)`));
    else s.voice = raw.voice.toLowerCase();
  }
  if (raw.language === undefined || raw.language === null || raw.language === '') out.push(value('language', 'language is required: a BCP-47 code such as "en" or "pt-BR", or "auto"'));
  else if (typeof raw.language !== 'string') out.push(shape('language', 'language must be a string'));
  else s.language = raw.language;
  if (raw.speed !== undefined && raw.speed !== null) {
    if (typeof raw.speed !== 'number' || !Number.isFinite(raw.speed)) out.push(shape('speed', 'speed must be a number'));
    else if (raw.speed < LIMITS.ttsSpeed.min || raw.speed > LIMITS.ttsSpeed.max) out.push(value('speed', `speed must be between ${LIMITS.ttsSpeed.min} and ${LIMITS.ttsSpeed.max}; got ${raw.speed}`));
    else s.speed = raw.speed;
  }
  if (raw.osl !== undefined && raw.osl !== null) {
    if (typeof raw.osl !== 'number' || !Number.isInteger(raw.osl)) out.push(shape('optimize_streaming_latency', 'optimize_streaming_latency must be an integer'));
    // Some clients send 2 (wire-notes §3.1): taken as 1.
    else if (raw.osl < 0 || raw.osl > 2) out.push(value('optimize_streaming_latency', `optimize_streaming_latency must be 0 (best quality) or 1 (smaller first chunk); got ${raw.osl}`));
    else s.optimizeStreamingLatency = Math.min(1, raw.osl);
  }
  for (const [key, field] of [['norm', 'text_normalization'], ['ts', 'with_timestamps']] as const) {
    const v = raw[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'boolean') out.push(shape(field, `${field} must be true or false`));
    else if (key === 'norm') s.textNormalization = v;
    else s.withTimestamps = v;
  }
  return s;
}

/** `text` of a body or a `text.delta`: a string of 1 to 60,000 characters (the limit is shared/limits.ts). */
export function checkText(text: unknown, field: string, allowEmpty = false): RequestViolation | null {
  if (text === undefined || text === null) return shape(field, `${field} is required: the text to speak`);
  if (typeof text !== 'string') return shape(field, `${field} must be a string`);
  if (!allowEmpty && text.trim() === '') return value(field, `${field} must not be empty`);
  const length = [...text].length;
  if (length > LIMITS.ttsText.max) return value(field, `${field} is ${length.toLocaleString('en-US')} characters; the limit is ${LIMITS.ttsText.max.toLocaleString('en-US')}`);
  return null;
}

/** The `POST /v1/tts` body. */
export function checkTtsBody(body: unknown): { settings: TtsSettings; text: string } | { violations: RequestViolation[] } {
  const out: RequestViolation[] = [];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { violations: [shape('body', 'The body must be a JSON object')] };
  const b = body as Record<string, unknown>;
  for (const key of Object.keys(b)) if (!BODY_FIELDS.includes(key)) out.push(value(key, `Unknown field ${key}; the text-to-speech body takes ${BODY_FIELDS.join(', ')}`));
  const textViolation = checkText(b.text, 'text');
  if (textViolation) out.push(textViolation);
  let format = checkFormat(undefined, undefined, undefined, '', out);
  const of = b.output_format;
  if (of !== undefined && of !== null) {
    if (typeof of !== 'object' || Array.isArray(of)) out.push(shape('output_format', 'output_format must be an object {codec, sample_rate, bit_rate}'));
    else {
      const o = of as Record<string, unknown>;
      for (const key of Object.keys(o)) if (!FORMAT_FIELDS.includes(key)) out.push(value(`output_format.${key}`, `Unknown field output_format.${key}; output_format takes codec, sample_rate, bit_rate`));
      format = checkFormat(o.codec, o.sample_rate, o.bit_rate, 'output_format.', out);
    }
  }
  if (b.replace !== undefined && b.replace !== null && !Array.isArray(b.replace)) out.push(shape('replace', 'replace must be an array'));
  const common = checkCommon({ voice: b.voice_id, language: b.language, speed: b.speed, osl: b.optimize_streaming_latency, norm: b.text_normalization, ts: b.with_timestamps }, { voice: 'voice_id' }, out);
  if (out.length > 0) return { violations: out };
  return { settings: { ...common, format }, text: b.text as string };
}

/** Query parameters are text: numbers and booleans are read from it strictly. */
function queryNumber(q: URLSearchParams, name: string, integer: boolean, out: RequestViolation[]): number | undefined {
  const raw = q.get(name);
  if (raw === null) return undefined;
  const n = raw.trim() === '' ? Number.NaN : Number(raw);
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n))) {
    out.push(shape(name, `${name} must be ${integer ? 'an integer' : 'a number'}; got "${raw.slice(0, 40)}"`));
    return Number.NaN;
  }
  return n;
}

function queryBoolean(q: URLSearchParams, name: string, out: RequestViolation[]): boolean | undefined {
  const raw = q.get(name);
  if (raw === null) return undefined;
  const v = raw.toLowerCase();
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  out.push(shape(name, `${name} must be true or false; got "${raw.slice(0, 40)}"`));
  return undefined;
}

/** The WebSocket `/v1/tts` query. */
export function checkTtsQuery(q: URLSearchParams): { settings: TtsSettings } | { violations: RequestViolation[] } {
  const out: RequestViolation[] = [];
  for (const name of ['voice', 'language', 'codec', 'sample_rate', 'bit_rate', 'optimize_streaming_latency', 'speed', 'text_normalization', 'with_timestamps']) {
    if (q.getAll(name).length > 1) out.push(value(name, `${name} is given ${q.getAll(name).length} times; give it once`));
  }
  const rate = queryNumber(q, 'sample_rate', true, out);
  const bits = queryNumber(q, 'bit_rate', true, out);
  const format = checkFormat(q.get('codec') ?? undefined, Number.isNaN(rate) ? undefined : rate, Number.isNaN(bits) ? undefined : bits, '', out);
  const speed = queryNumber(q, 'speed', false, out);
  const osl = queryNumber(q, 'optimize_streaming_latency', true, out);
  const common = checkCommon(
    {
      voice: q.get('voice') ?? undefined,
      language: q.get('language') ?? undefined,
      speed: Number.isNaN(speed) ? undefined : speed,
      osl: Number.isNaN(osl) ? undefined : osl,
      norm: queryBoolean(q, 'text_normalization', out),
      ts: queryBoolean(q, 'with_timestamps', out),
    },
    { voice: 'voice' },
    out,
  );
  if (out.length > 0) return { violations: out };
  return { settings: { ...common, format } };
}
