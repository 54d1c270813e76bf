/**
 * Code export of a realtime session (WebSocket `/v1/realtime`, wire-notes §2 and §6.4): the
 * session a person set up in the console, described once here, and every message the exported
 * programs send, built once here. The TypeScript (realtime-typescript.ts) and Python
 * (realtime-python.ts) exporters write these values as literals, so both programs send the same
 * bodies (test/integration/codegen/realtime-execute.test.ts compares what each actually sends).
 * Pure: no Node or DOM.
 */

export type RealtimeAudioType = 'audio/pcm' | 'audio/pcmu' | 'audio/pcma';

export interface RealtimeCodeFormat {
  type: RealtimeAudioType;
  /** PCM only (8000-48000); G.711 is always 8000. Default 24000. */
  rate?: number;
}

export interface RealtimeCodeTool {
  name: string;
  description?: string;
  /** JSON Schema of the arguments. */
  parameters?: Record<string, unknown>;
}

/** Server VAD with its parameters (wire names' meaning; undefined = the server's default). */
export interface RealtimeCodeVad {
  type: 'server_vad';
  threshold?: number;
  prefixPaddingMs?: number;
  silenceDurationMs?: number;
  idleTimeoutMs?: number;
}

/** What the console knows of a session, as the exporters take it. */
export interface RealtimeCodeSession {
  /** The `model` query value; undefined: the server's default. */
  model?: string;
  voice?: string;
  instructions?: string;
  /** null: manual turns (push-to-talk: the program commits); undefined: the server's default (server VAD). */
  turnDetection?: RealtimeCodeVad | null;
  inputFormat?: RealtimeCodeFormat;
  outputFormat?: RealtimeCodeFormat;
  tools?: RealtimeCodeTool[];
  /** What the text turn says (default: a question that asks the model to speak). */
  prompt?: string;
  /** The WAV the audio turn streams (default `input.wav`; a command-line argument replaces it). */
  audioFile?: string;
  /** The client secret's lifetime, 1-3600 s (default 600). */
  secretSeconds?: number;
}

export const DEFAULT_PROMPT = 'Hello! Please introduce yourself in one sentence.';
export const DEFAULT_AUDIO_FILE = 'input.wav';
/** The answer to the audio turn, written by both programs. */
export const ANSWER_FILE = 'answer.wav';
const PCM_RATES = [8000, 16000, 22050, 24000, 32000, 44100, 48000];

/** One audio format as the programs handle it: wire form, WAV format tag, bytes per 20 ms, the byte of silence. */
export interface FormatPlan {
  wire: { type: RealtimeAudioType; rate: number };
  /** WAV `fmt ` format tag: 1 PCM, 7 µ-law, 6 A-law. */
  wavTag: number;
  bitsPerSample: number;
  /** Bytes in one 20 ms chunk. */
  chunkBytes: number;
  /** The value of a silent byte (PCM: 0; µ-law 0xff; A-law 0xd5). */
  silenceByte: number;
}

/** Everything the programs send, in order, and what they need to read and write audio. */
export interface RealtimeMessages {
  /** Body of `POST /v1/realtime/client_secrets`. */
  clientSecretRequest: { expires_after: { seconds: number } };
  /** Path and query of the socket (`/v1/realtime?model=…`). */
  socketPath: string;
  sessionUpdate: { type: 'session.update'; session: Record<string, unknown> };
  /** The text turn: the user's message then `response.create`. */
  textTurn: Array<Record<string, unknown>>;
  /** Sent after the audio (manual turns: commit and response.create; server VAD: nothing, it commits by itself). */
  afterAudio: Array<Record<string, unknown>>;
  /** Under server VAD the programs send silence after the file until the server commits the turn. */
  manual: boolean;
  input: FormatPlan;
  output: FormatPlan;
  toolNames: string[];
  prompt: string;
  audioFile: string;
}

/** A problem that makes a session not exportable, for the console to show; null when it is fine. */
export function realtimeCodeProblem(s: RealtimeCodeSession): string | null {
  for (const [name, f] of [['input', s.inputFormat], ['output', s.outputFormat]] as const) {
    if (!f) continue;
    if (!['audio/pcm', 'audio/pcmu', 'audio/pcma'].includes(f.type)) {
      return `The ${name} format ${String(f.type)} cannot be exported: the programs read and write WAV files, so use audio/pcm, audio/pcmu or audio/pcma.`;
    }
    if (f.type === 'audio/pcm' && f.rate !== undefined && !PCM_RATES.includes(f.rate)) return `The ${name} rate ${f.rate} Hz is not one of ${PCM_RATES.join(', ')}.`;
  }
  const seconds = s.secretSeconds ?? 600;
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 3600) return `A client secret lasts 1 to 3600 seconds; got ${seconds}.`;
  const names = new Set<string>();
  for (const t of s.tools ?? []) {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(t.name)) return `The tool name ${JSON.stringify(t.name)} is not valid: 1-64 letters, digits, _ or -.`;
    if (names.has(t.name)) return `The tool ${t.name} is listed twice.`;
    names.add(t.name);
  }
  return null;
}

function formatPlan(f: RealtimeCodeFormat | undefined): FormatPlan {
  const type = f?.type ?? 'audio/pcm';
  const rate = type === 'audio/pcm' ? (f?.rate ?? 24000) : 8000;
  const pcm = type === 'audio/pcm';
  return {
    wire: { type, rate },
    wavTag: pcm ? 1 : type === 'audio/pcmu' ? 7 : 6,
    bitsPerSample: pcm ? 16 : 8,
    chunkBytes: (rate / 50) * (pcm ? 2 : 1),
    silenceByte: pcm ? 0 : type === 'audio/pcmu' ? 0xff : 0xd5,
  };
}

function vadWire(v: RealtimeCodeVad): Record<string, unknown> {
  const out: Record<string, unknown> = { type: 'server_vad' };
  if (v.threshold !== undefined) out.threshold = v.threshold;
  if (v.prefixPaddingMs !== undefined) out.prefix_padding_ms = v.prefixPaddingMs;
  if (v.silenceDurationMs !== undefined) out.silence_duration_ms = v.silenceDurationMs;
  if (v.idleTimeoutMs !== undefined) out.idle_timeout_ms = v.idleTimeoutMs;
  return out;
}

/** The messages of a session (call realtimeCodeProblem first: this assumes a valid one). */
export function realtimeMessages(s: RealtimeCodeSession): RealtimeMessages {
  const input = formatPlan(s.inputFormat);
  const output = formatPlan(s.outputFormat);
  const session: Record<string, unknown> = {};
  if (s.instructions !== undefined && s.instructions !== '') session.instructions = s.instructions;
  if (s.voice !== undefined && s.voice !== '') session.voice = s.voice;
  // Always sent, so the program's turn handling (commit or not) matches the session whatever the default.
  session.turn_detection = s.turnDetection === null ? null : vadWire(s.turnDetection ?? { type: 'server_vad' });
  session.audio = { input: { format: input.wire }, output: { format: output.wire } };
  const tools = s.tools ?? [];
  if (tools.length > 0) {
    session.tools = tools.map((t) => ({
      type: 'function',
      name: t.name,
      description: t.description ?? '',
      parameters: t.parameters ?? { type: 'object', properties: {} },
    }));
  }
  const manual = s.turnDetection === null;
  const prompt = s.prompt && s.prompt.trim() !== '' ? s.prompt : DEFAULT_PROMPT;
  return {
    clientSecretRequest: { expires_after: { seconds: s.secretSeconds ?? 600 } },
    socketPath: `/v1/realtime${s.model ? `?model=${encodeURIComponent(s.model)}` : ''}`,
    sessionUpdate: { type: 'session.update', session },
    textTurn: [
      { type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: prompt }] } },
      { type: 'response.create' },
    ],
    afterAudio: manual ? [{ type: 'input_audio_buffer.commit' }, { type: 'response.create' }] : [],
    manual,
    input,
    output,
    toolNames: tools.map((t) => t.name),
    prompt,
    audioFile: s.audioFile && s.audioFile !== '' ? s.audioFile : DEFAULT_AUDIO_FILE,
  };
}

/** The ffmpeg line that makes a WAV this session takes. */
export function convertHint(input: FormatPlan): string {
  const codec = input.wavTag === 1 ? 'pcm_s16le' : input.wavTag === 7 ? 'pcm_mulaw' : 'pcm_alaw';
  return `ffmpeg -i IN -ar ${input.wire.rate} -ac 1 -c:a ${codec} input.wav`;
}

/** How a program describes the input it needs, for its messages. */
export function inputDescription(input: FormatPlan): string {
  const kind = input.wavTag === 1 ? '16-bit PCM' : input.wavTag === 7 ? 'G.711 µ-law' : 'G.711 A-law';
  return `${kind}, ${input.wire.rate} Hz, mono`;
}
