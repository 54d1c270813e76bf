/**
 * The optional `response` body of `response.create` (wire-notes §2.2): per-response overrides of
 * the session (`output_modalities` / `modalities`, `instructions`, `voice`, `tools`,
 * `tool_choice`, `max_output_tokens`), `conversation` ("auto", or "none" for an out-of-band
 * answer kept out of the conversation) and `metadata`. Any broken rule refuses the whole create.
 */
import { isObject } from '../../../shared/validate/violations';
import type { Modality, SessionConfig, SessionIssue, SessionTool, ToolChoice, VoiceCheck } from './session-config';
import { checkModalities, checkToolChoice, checkTools } from './session-tools';

export interface ResponseRequest {
  modalities: Modality[];
  instructions: string;
  voice: string;
  tools: SessionTool[];
  toolChoice: ToolChoice;
  maxOutputTokens: number | 'inf';
  keep: boolean;
  metadata: Record<string, unknown> | null;
}

const FIELDS = ['modalities', 'output_modalities', 'instructions', 'voice', 'tools', 'tool_choice', 'max_output_tokens', 'max_response_output_tokens', 'conversation', 'metadata', 'temperature', 'audio'];

export function checkResponseRequest(raw: unknown, session: SessionConfig, voiceOk: VoiceCheck): ResponseRequest | { issues: SessionIssue[] } {
  const issues: SessionIssue[] = [];
  const bad = (param: string, message: string, code: SessionIssue['code'] = 'invalid_value') => issues.push({ param, code, message });
  const out: ResponseRequest = {
    modalities: session.output_modalities,
    instructions: session.instructions,
    voice: session.voice,
    tools: session.tools,
    toolChoice: session.tool_choice,
    maxOutputTokens: session.max_output_tokens,
    keep: true,
    metadata: null,
  };
  if (raw === undefined || raw === null) return out;
  if (!isObject(raw)) return { issues: [{ param: 'response', code: 'invalid_type', message: 'response must be an object' }] };
  for (const key of Object.keys(raw)) if (!FIELDS.includes(key)) bad(`response.${key}`, `Unknown parameter: 'response.${key}'.`, 'unknown_parameter');
  const modalities = raw.output_modalities ?? raw.modalities;
  if (modalities !== undefined) out.modalities = checkModalities(modalities, `response.${raw.output_modalities !== undefined ? 'output_modalities' : 'modalities'}`, bad) ?? out.modalities;
  if (raw.instructions !== undefined) {
    if (typeof raw.instructions !== 'string') bad('response.instructions', 'response.instructions must be a string', 'invalid_type');
    else out.instructions = raw.instructions;
  }
  const voice = raw.voice ?? (isObject(raw.audio) && isObject(raw.audio.output) ? raw.audio.output.voice : undefined);
  if (voice !== undefined) {
    if (typeof voice !== 'string' || !voiceOk(voice)) bad('response.voice', `Unknown voice '${String(voice)}': use a built-in voice (eve, ara, rex, sal, leo) or one of your team's custom voices.`);
    else out.voice = voice.toLowerCase();
  }
  if (raw.tools !== undefined) out.tools = checkTools(raw.tools, 'response.tools', bad) ?? out.tools;
  if (raw.tool_choice !== undefined) out.toolChoice = checkToolChoice(raw.tool_choice, 'response.tool_choice', bad) ?? out.toolChoice;
  const max = raw.max_output_tokens ?? raw.max_response_output_tokens;
  if (max !== undefined) {
    if (max === 'inf' || (Number.isInteger(max) && (max as number) >= 1 && (max as number) <= 4096)) out.maxOutputTokens = max as number | 'inf';
    else bad('response.max_output_tokens', `response.max_output_tokens must be an integer from 1 to 4096 or "inf"; got ${JSON.stringify(max)}`);
  }
  if (raw.conversation !== undefined) {
    if (raw.conversation !== 'auto' && raw.conversation !== 'none') bad('response.conversation', `response.conversation must be "auto" or "none"; got ${JSON.stringify(raw.conversation)}`);
    else out.keep = raw.conversation === 'auto';
  }
  if (raw.metadata !== undefined && raw.metadata !== null) {
    if (!isObject(raw.metadata) || Object.keys(raw.metadata).length > 16 || Object.values(raw.metadata).some((v) => typeof v !== 'string')) bad('response.metadata', 'response.metadata must be an object of at most 16 string values');
    else out.metadata = raw.metadata;
  }
  if (raw.audio !== undefined && (!isObject(raw.audio) || Object.keys(raw.audio).some((k) => k !== 'output') || (isObject(raw.audio.output) && Object.keys(raw.audio.output).some((k) => k !== 'voice')))) {
    bad('response.audio', 'response.audio may only set output.voice (the output format is the session\'s)');
  }
  if (typeof out.toolChoice === 'object') {
    const name = out.toolChoice.name;
    if (!out.tools.some((t) => t.type === 'function' && t.name === name)) bad('response.tool_choice', `response.tool_choice names the function '${name}', which is not among the tools`);
  }
  return issues.length > 0 ? { issues } : out;
}
