/**
 * What a realtime call sends the service from its input: the `session` of its `session.update`
 * (GA placement: formats, transcription and turn detection under `audio.input`, the voice under
 * `audio.output`; tools flat), and on a reconnect the items that seed the conversation back from
 * the transcript (user text as `input_text`, the model's answers as assistant `output_text`, as
 * wire-notes §2 allows for history seeding). Pure.
 */
import type { RealtimeCallInput } from './input';
import type { RealtimeTranscriptEntry } from './snapshot';

export function realtimeSessionBody(input: RealtimeCallInput, formats: { input: { type: string; rate: number }; output: { type: string; rate: number } }): Record<string, unknown> {
  const audioInput: Record<string, unknown> = { format: formats.input };
  if (input.turnDetection !== undefined) audioInput.turn_detection = input.turnDetection === null ? null : { ...input.turnDetection, type: 'server_vad' };
  if (input.inputTranscription !== undefined) audioInput.transcription = input.inputTranscription;
  const audioOutput: Record<string, unknown> = { format: formats.output };
  if (input.voice) audioOutput.voice = input.voice;
  const body: Record<string, unknown> = { type: 'realtime', audio: { input: audioInput, output: audioOutput } };
  if (input.instructions !== undefined) body.instructions = input.instructions;
  if (input.tools.length > 0) {
    body.tools = input.tools.map((t) => ({ type: 'function', name: t.name, ...(t.description.trim() ? { description: t.description } : {}), parameters: t.parameters }));
  }
  if (input.toolChoice !== undefined) body.tool_choice = typeof input.toolChoice === 'string' ? input.toolChoice : { type: 'function', name: input.toolChoice.name };
  return body;
}

/**
 * The conversation so far as `conversation.item.create` items, in order (empty text left out).
 * Each keeps its item id (the spec allows a client id of 1-64 characters): the service's echo of a
 * seeded user message then lands on the transcript entry it came from instead of adding it again.
 */
export function realtimeSeedItems(entries: readonly RealtimeTranscriptEntry[]): Array<Record<string, unknown>> {
  return entries
    .filter((e) => e.text.trim())
    .map((e) => ({
      ...(e.itemId && e.itemId.length <= 64 ? { id: e.itemId } : {}),
      type: 'message',
      role: e.role,
      content: [{ type: e.role === 'user' ? 'input_text' : 'output_text', text: e.text.trim() }],
    }));
}
