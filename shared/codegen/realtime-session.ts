/**
 * Code export of a realtime session (WebSocket `/v1/realtime`, wire-notes §2 and §6.4): from the
 * call input the console starts a call with (shared/realtime-call), every message the exported
 * programs send, built once here. The TypeScript (realtime-typescript.ts) and Python
 * (realtime-python.ts) exporters write these values as literals, so both programs send the same
 * bodies (test/integration/codegen/realtime-execute.test.ts compares what each actually sends).
 * Pure: no Node or DOM.
 */
import type { RealtimeAudioFormat, RealtimeCallInput } from '../realtime-call/input';
import { realtimeSessionBody } from '../realtime-call/session-body';

export type RealtimeAudioType = 'audio/pcm' | 'audio/pcmu' | 'audio/pcma';

/** What the programs need besides the call's input: the text turn's words and the WAV the audio turn streams. */
export interface RealtimeCodeExtras {
  /** What the text turn says (default: a question that asks the model to speak). */
  prompt?: string;
  /** The WAV the audio turn streams (default `input.wav`; a command-line argument replaces it). */
  audioFile?: string;
}

export const DEFAULT_PROMPT = 'Hello! Please introduce yourself in one sentence.';
export const DEFAULT_AUDIO_FILE = 'input.wav';
/** The answer to the audio turn, written by both programs. */
export const ANSWER_FILE = 'answer.wav';
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
  /** Each tool with the saved reply the program answers with (the auto-responder's, else the tools panel's), or null for a stub. */
  tools: Array<{ name: string; reply: string | null }>;
  prompt: string;
  audioFile: string;
}

function formatPlan(f: RealtimeAudioFormat | undefined): FormatPlan {
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

/**
 * The messages of a call's session (its input checked, defaults applied): `session.update` is what
 * the app itself sends for that input (shared/realtime-call realtimeSessionBody), the model and
 * reasoning effort go in the query, the secret lasts `clientSecretSeconds` (default 600).
 */
export function realtimeMessages(input: RealtimeCallInput, extras: RealtimeCodeExtras = {}): RealtimeMessages {
  const inFormat = formatPlan(input.formats.input);
  const outFormat = formatPlan(input.formats.output);
  const manual = input.turnDetection === null;
  const prompt = extras.prompt && extras.prompt.trim() !== '' ? extras.prompt : DEFAULT_PROMPT;
  const query = [
    ...(input.model ? [`model=${encodeURIComponent(input.model)}`] : []),
    ...(input.reasoningEffort ? [`reasoning.effort=${encodeURIComponent(input.reasoningEffort)}`] : []),
  ];
  return {
    clientSecretRequest: { expires_after: { seconds: input.clientSecretSeconds ?? 600 } },
    socketPath: `/v1/realtime${query.length > 0 ? `?${query.join('&')}` : ''}`,
    sessionUpdate: { type: 'session.update', session: realtimeSessionBody(input, { input: inFormat.wire, output: outFormat.wire }) },
    textTurn: [
      { type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: prompt }] } },
      { type: 'response.create' },
    ],
    afterAudio: manual ? [{ type: 'input_audio_buffer.commit' }, { type: 'response.create' }] : [],
    manual,
    input: inFormat,
    output: outFormat,
    tools: input.tools.map((t) => ({ name: t.name, reply: input.autoReplies[t.name]?.output ?? t.savedReply ?? null })),
    prompt,
    audioFile: extras.audioFile && extras.audioFile !== '' ? extras.audioFile : DEFAULT_AUDIO_FILE,
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
