/**
 * The call console's connect form (pure): what the user chose, the problems that keep Start
 * disabled (each said with the allowed range, from the spec's limits in shared/wire/realtime.ts),
 * and the `realtime` live kind's input built from it (shared/realtime-call: checked again in main).
 * The auto-responder's replies come from the tools' saved replies (the shared tools panel keeps
 * them), with the injected latency or error the form adds to every one.
 */
import type { AudioDeviceChoice } from '@shared/contract/audio';
import type { ToolSpec } from '@shared/tools/tool-spec';
import type { RealtimeAutoReplies, RealtimeCallInputDraft } from '@shared/realtime-call';
import { REALTIME_LIMITS, REALTIME_MODELS, REALTIME_PCM_RATES } from '@shared/wire/realtime';

export type FormatType = 'audio/pcm' | 'audio/pcmu' | 'audio/pcma';

export interface ConnectForm {
  auth: 'key' | 'client-secret';
  /** Lifetime of a minted client secret. */
  secretSeconds: number;
  model: string;
  voice: string;
  instructions: string;
  /** Server VAD, or push-to-talk (manual commits: hold Space or the button). */
  turn: 'server_vad' | 'push-to-talk';
  threshold: number;
  prefixPaddingMs: number;
  silenceDurationMs: number;
  inputFormat: FormatType;
  inputRate: number;
  outputFormat: FormatType;
  outputRate: number;
  /** Transcribe the user's audio (the user's side of the transcript). */
  transcribeInput: boolean;
  tools: ToolSpec[];
  /** Answer tools with their saved replies in main (a call with no window still answers); off: answer by hand. */
  autoRespond: boolean;
  /** Injected before every automatic answer. */
  replyLatencyMs: number;
  /** When set, every automatic answer is this error instead (a tool that throws). */
  replyError: string;
  microphone: AudioDeviceChoice;
  output: AudioDeviceChoice;
}

export const INPUT_TRANSCRIPTION_MODEL = 'svc-transcribe';

export function defaultConnectForm(): ConnectForm {
  return {
    auth: 'key',
    secretSeconds: REALTIME_LIMITS.clientSecretSecondsDefault,
    model: REALTIME_MODELS[0],
    voice: '',
    instructions: '',
    turn: 'server_vad',
    threshold: 0.5,
    prefixPaddingMs: 300,
    silenceDurationMs: 500,
    inputFormat: 'audio/pcm',
    inputRate: 24_000,
    outputFormat: 'audio/pcm',
    outputRate: 24_000,
    transcribeInput: true,
    tools: [],
    autoRespond: true,
    replyLatencyMs: 0,
    replyError: '',
    microphone: { kind: 'page' },
    output: { kind: 'page' },
  };
}

const between = (v: number, lo: number, hi: number): boolean => Number.isFinite(v) && v >= lo && v <= hi;

/** What keeps the form from starting a call, each a sentence the user can act on. */
export function formProblems(form: ConnectForm): string[] {
  const out: string[] = [];
  const L = REALTIME_LIMITS;
  if (form.auth === 'client-secret' && (!Number.isInteger(form.secretSeconds) || !between(form.secretSeconds, 1, L.clientSecretSecondsMax)))
    out.push(`A client secret lives 1 to ${L.clientSecretSecondsMax} seconds.`);
  if (!form.model.trim()) out.push('Choose a model.');
  if (form.turn === 'server_vad') {
    if (!between(form.threshold, L.thresholdMin, L.thresholdMax)) out.push(`The VAD threshold is ${L.thresholdMin} to ${L.thresholdMax}.`);
    if (!Number.isInteger(form.prefixPaddingMs) || !between(form.prefixPaddingMs, 0, L.prefixPaddingMsMax)) out.push(`Prefix padding is 0 to ${L.prefixPaddingMsMax} ms.`);
    if (!Number.isInteger(form.silenceDurationMs) || !between(form.silenceDurationMs, 0, L.silenceDurationMsMax)) out.push(`Silence duration is 0 to ${L.silenceDurationMsMax} ms.`);
  }
  for (const [side, type, rate] of [
    ['input', form.inputFormat, form.inputRate],
    ['output', form.outputFormat, form.outputRate],
  ] as const) {
    if (type === 'audio/pcm' && !(REALTIME_PCM_RATES as readonly number[]).includes(rate)) out.push(`The ${side} PCM rate is one of ${REALTIME_PCM_RATES.join(', ')} Hz.`);
  }
  // The page plays and captures PCM16; G.711 is for calls whose audio stays in main (native devices).
  if (form.microphone.kind === 'page' && form.inputFormat !== 'audio/pcm') out.push("The page's microphone sends PCM: choose audio/pcm for the input, or a native microphone.");
  if (form.output.kind === 'page' && form.outputFormat !== 'audio/pcm') out.push("The page's speakers play PCM: choose audio/pcm for the output, or native speakers.");
  if (!Number.isInteger(form.replyLatencyMs) || !between(form.replyLatencyMs, 0, 60_000)) out.push('The injected reply latency is 0 to 60000 ms.');
  const names = new Set<string>();
  for (const tool of form.tools) {
    if (!tool.name.trim()) out.push('Every tool needs a name.');
    else if (names.has(tool.name)) out.push(`Two tools are called ${tool.name}.`);
    names.add(tool.name);
  }
  return out;
}

/** The auto-responder's replies: each tool with a saved reply, with the form's latency and error. */
export function autoRepliesOf(form: Pick<ConnectForm, 'tools' | 'autoRespond' | 'replyLatencyMs' | 'replyError'>): RealtimeAutoReplies {
  if (!form.autoRespond) return {};
  const out: RealtimeAutoReplies = {};
  for (const tool of form.tools) {
    if (!tool.name || tool.savedReply === undefined) continue;
    out[tool.name] = {
      output: tool.savedReply,
      ...(form.replyLatencyMs > 0 ? { latencyMs: form.replyLatencyMs } : {}),
      ...(form.replyError.trim() ? { error: form.replyError.trim() } : {}),
    };
  }
  return out;
}

type DraftFormat = NonNullable<NonNullable<RealtimeCallInputDraft['formats']>['input']>;
type PcmRate = Extract<DraftFormat, { type: 'audio/pcm' }>['rate'];

/** One side's format; G.711 is 8 kHz whatever rate the form held for PCM (formProblems() checked the PCM rate). */
function format(type: FormatType, rate: number): DraftFormat {
  if (type === 'audio/pcm') return { type, rate: rate as PcmRate };
  return type === 'audio/pcmu' ? { type, rate: 8000 } : { type, rate: 8000 };
}

/** The live kind's input (shared/realtime-call RealtimeCallInputSchema, before its defaults). */
export function callInputOf(form: ConnectForm, connectionId?: string): RealtimeCallInputDraft {
  return {
    ...(connectionId ? { connectionId } : {}),
    auth: form.auth,
    ...(form.auth === 'client-secret' ? { clientSecretSeconds: form.secretSeconds } : {}),
    model: form.model.trim(),
    ...(form.voice ? { voice: form.voice } : {}),
    ...(form.instructions.trim() ? { instructions: form.instructions } : {}),
    turnDetection:
      form.turn === 'push-to-talk' ? null : { type: 'server_vad' as const, threshold: form.threshold, prefix_padding_ms: form.prefixPaddingMs, silence_duration_ms: form.silenceDurationMs },
    formats: { input: format(form.inputFormat, form.inputRate), output: format(form.outputFormat, form.outputRate) },
    inputTranscription: form.transcribeInput ? { model: INPUT_TRANSCRIPTION_MODEL } : null,
    tools: form.tools.map((t) => ({ ...t })),
    autoReplies: autoRepliesOf(form),
    microphone: form.microphone.device ? { kind: form.microphone.kind, device: form.microphone.device } : { kind: form.microphone.kind },
    output: form.output.device ? { kind: form.output.kind, device: form.output.device } : { kind: form.output.kind },
  };
}

/** `9:58` left of a client secret, `expired`, from its expiry (epoch seconds) and now (epoch ms). */
export function secretCountdown(expiresAtSec: number, nowMs: number): { text: string; expired: boolean; seconds: number } {
  const seconds = Math.max(0, Math.floor(expiresAtSec - nowMs / 1000));
  if (seconds === 0) return { text: 'expired', expired: true, seconds };
  return { text: `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`, expired: false, seconds };
}
