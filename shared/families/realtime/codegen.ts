/**
 * Code export of a recorded realtime call (History's inspector): the call's `session.update` body,
 * recorded as the run's request (`{session, call_id?}`, main/live/realtime.ts), read back into the
 * call's input and written by `realtimeSessionCode` (shared/codegen/realtime-code.ts), the same
 * programs the console's Code tab shows for its form. Not a curl of the socket path: curl cannot
 * hold the conversation, so that tab says why.
 */
import type { CapturedRequest } from '../../contract/runs';
import { realtimeSessionCode } from '../../codegen/realtime-code';
import type { RealtimeCallInputDraft } from '../../realtime-call/input';
import type { CodeExporter, ExportLang, ExporterOptions, ExportResult } from '../types';

type Json = Record<string, unknown>;

function obj(v: unknown): Json | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v ? v : undefined;
}

/** `ws://host:port/v1/realtime?model=m` -> `{ root: 'http://host:port', model: 'm' }`. */
function socketParts(url: string): { root?: string; model?: string } {
  const m = /^(wss?|https?):\/\/([^/?#]+)([^?#]*)(\?[^#]*)?/.exec(url.trim());
  if (!m) return {};
  const scheme = m[1] === 'wss' || m[1] === 'https' ? 'https' : 'http';
  const prefix = m[3].replace(/\/v\d+\/realtime\/?$/, '').replace(/\/+$/, '');
  const query = new Map((m[4] ?? '').replace(/^\?/, '').split('&').filter(Boolean).map((kv) => kv.split('=').map((s) => decodeURIComponent(s)) as [string, string]));
  return { root: `${scheme}://${m[2]}${prefix}`, model: str(query.get('model')) };
}

/** The call's input from its recorded `session.update` body (the inverse of realtimeSessionBody), or a reason it cannot be read. */
export function recordedCallInput(request: CapturedRequest): { input: RealtimeCallInputDraft; root?: string } | { unsupported: string } {
  let body: Json | undefined;
  try {
    body = obj(typeof request.body === 'string' ? JSON.parse(request.body) : request.body);
  } catch {
    body = undefined;
  }
  const session = obj(body?.session);
  if (!session) return { unsupported: 'This call was recorded without its session, so there is nothing to export.' };
  const { root, model } = socketParts(request.url);
  const audio = obj(session.audio);
  const audioIn = obj(audio?.input);
  const audioOut = obj(audio?.output);
  const input: Json = { tools: [] };
  if (model) input.model = model;
  const voice = str(audioOut?.voice);
  if (voice) input.voice = voice;
  if (typeof session.instructions === 'string') input.instructions = session.instructions;
  if (audioIn && 'turn_detection' in audioIn) input.turnDetection = audioIn.turn_detection ?? null;
  const formats: Json = {};
  if (obj(audioIn?.format)) formats.input = audioIn?.format;
  if (obj(audioOut?.format)) formats.output = audioOut?.format;
  input.formats = formats;
  if (audioIn && 'transcription' in audioIn) input.inputTranscription = audioIn.transcription ?? null;
  if (Array.isArray(session.tools)) {
    input.tools = session.tools.map((t) => {
      const tool = obj(t) ?? {};
      return { name: String(tool.name ?? ''), description: typeof tool.description === 'string' ? tool.description : '', parameters: obj(tool.parameters) ?? {} };
    });
  }
  const choice = session.tool_choice;
  if (typeof choice === 'string') input.toolChoice = choice;
  else if (str(obj(choice)?.name)) input.toolChoice = { name: str(obj(choice)?.name) };
  return { input: input as RealtimeCallInputDraft, root };
}

function exportRecorded(lang: ExportLang): (request: CapturedRequest, opts: ExporterOptions) => ExportResult {
  return (request, opts) => {
    const read = recordedCallInput(request);
    if ('unsupported' in read) return read;
    return realtimeSessionCode(read.input, lang, { ...opts, baseUrl: opts.baseUrl ?? read.root });
  };
}

export const REALTIME_EXPORTER: CodeExporter = {
  curl: exportRecorded('curl'),
  python: exportRecorded('python'),
  'python-sdk': exportRecorded('python-sdk'),
  typescript: exportRecorded('typescript'),
  'typescript-sdk': exportRecorded('typescript-sdk'),
};
