import { describe, expect, it } from 'vitest';
import { clientSecretSchema, parseRealtimeClientEvent, parseRealtimeServerEvent, REALTIME_SERVER_TYPES } from '../../../../shared/wire/realtime';

/** The server events of wire-notes §2.3, as recorded there. */
const SERVER = [
  { type: 'conversation.created', event_id: 'event_1', conversation: { id: 'conv_1', object: 'realtime.conversation' } },
  { type: 'session.created', event_id: 'event_2', session: { id: 'sess_1', object: 'realtime.session', model: 'svc-voice-latest', voice: 'eve', instructions: '…', turn_detection: { type: 'server_vad' }, audio: {}, tools: [] } },
  { type: 'session.updated', event_id: 'e', session: { turn_detection: null } },
  { type: 'input_audio_buffer.speech_started', event_id: 'e', audio_start_ms: 1200, item_id: 'item_1' },
  { type: 'input_audio_buffer.speech_stopped', event_id: 'e', audio_end_ms: 2900, item_id: 'item_1' },
  { type: 'input_audio_buffer.committed', event_id: 'e', previous_item_id: null, item_id: 'item_1' },
  { type: 'input_audio_buffer.cleared', event_id: 'e' },
  { type: 'input_audio_buffer.timeout_triggered', event_id: 'e', audio_start_ms: 0, audio_end_ms: 8000, item_id: 'item_2' },
  { type: 'input_audio_buffer.dtmf_event_received', event: '5', received_at: 1730000000 },
  { type: 'conversation.item.added', event_id: 'e', previous_item_id: null, item: { id: 'item_1', object: 'realtime.item', type: 'message', status: 'completed', role: 'user', content: [{ type: 'input_text', text: 'Hello!' }] } },
  { type: 'conversation.item.deleted', event_id: 'e', item_id: 'item_1' },
  { type: 'conversation.item.truncated', event_id: 'e', item_id: 'item_1', content_index: 0, audio_end_ms: 1500 },
  { type: 'conversation.item.input_audio_transcription.completed', event_id: 'e', item_id: 'item_1', content_index: 0, transcript: 'hello there', usage: { type: 'duration', seconds: 2.1 } },
  { type: 'conversation.item.input_audio_transcription.updated', event_id: 'e', item_id: 'item_1', content_index: 0, transcript: 'hello' },
  { type: 'response.created', event_id: 'e', response: { id: 'resp_1', object: 'realtime.response', status: 'in_progress', output: [], usage: null } },
  { type: 'response.output_item.added', event_id: 'e', response_id: 'resp_1', output_index: 0, item: { id: 'item_3', type: 'message', status: 'in_progress', role: 'assistant', content: [] } },
  { type: 'response.content_part.added', event_id: 'e', response_id: 'resp_1', item_id: 'item_3', output_index: 0, content_index: 0, part: { type: 'audio', transcript: '' } },
  { type: 'response.output_audio.delta', event_id: 'e', response_id: 'resp_1', item_id: 'item_3', output_index: 0, content_index: 0, delta: 'AAAA' },
  { type: 'response.output_audio_transcript.delta', event_id: 'e', response_id: 'resp_1', item_id: 'item_3', output_index: 0, content_index: 0, delta: 'Hi' },
  { type: 'response.output_audio.done', event_id: 'e', response_id: 'resp_1', item_id: 'item_3', output_index: 0, content_index: 0 },
  { type: 'response.output_audio_transcript.done', event_id: 'e', response_id: 'resp_1', item_id: 'item_3', output_index: 0, content_index: 0, transcript: 'Hi there!' },
  { type: 'response.content_part.done', event_id: 'e', response_id: 'resp_1', item_id: 'item_3', output_index: 0, content_index: 0, part: { type: 'audio', transcript: 'Hi there!' } },
  { type: 'response.output_item.done', event_id: 'e', response_id: 'resp_1', output_index: 0, item: { id: 'item_3', status: 'completed', content: [{ type: 'audio', transcript: 'Hi there!' }] } },
  { type: 'response.output_text.delta', response_id: 'r', item_id: 'i', output_index: 0, content_index: 0, delta: 'x' },
  { type: 'response.text.delta', response_id: 'r', item_id: 'i', output_index: 0, content_index: 0, delta: 'x' },
  { type: 'response.function_call_arguments.delta', event_id: 'e', response_id: 'resp_1', item_id: 'item_4', output_index: 0, call_id: 'call_1', delta: '{"ci' },
  { type: 'response.function_call_arguments.done', event_id: 'e', response_id: 'resp_1', item_id: 'item_4', output_index: 0, call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
  { type: 'response.mcp_call_arguments.done', response_id: 'r', item_id: 'i', output_index: 0, call_id: 'c', name: 'lookup', arguments: '{}' },
  { type: 'mcp_list_tools.completed', event_id: 'e', item_id: 'i' },
  { type: 'response.mcp_call.failed', event_id: 'e' },
  {
    type: 'response.done',
    event_id: 'e',
    response: {
      id: 'resp_1',
      object: 'realtime.response',
      status: 'completed',
      status_details: null,
      output: [],
      usage: { total_tokens: 253, input_tokens: 132, output_tokens: 121, input_token_details: { text_tokens: 119, audio_tokens: 13, cached_tokens: 64, cached_tokens_details: { text_tokens: 64, audio_tokens: 0 } }, output_token_details: { text_tokens: 30, audio_tokens: 91 } },
    },
  },
  { type: 'ping', event_id: 'e', timestamp: 1750000000000 },
  { type: 'error', event_id: 'e', error: { type: 'invalid_request_error', code: 'invalid_value', message: "Unknown voice 'bob'", param: 'session.voice', event_id: 'evt_client_1' } },
];

describe('realtime wire', () => {
  it('validates every recorded server event of wire-notes §2.3 as a known message', () => {
    for (const e of SERVER) expect(parseRealtimeServerEvent(e), e.type).toMatchObject({ kind: 'message' });
  });

  it('names every server event the spec lists', () => {
    const spec = ['session.created', 'conversation.created', 'session.updated', 'input_audio_buffer.speech_started', 'input_audio_buffer.speech_stopped', 'input_audio_buffer.committed', 'input_audio_buffer.timeout_triggered', 'input_audio_buffer.cleared', 'conversation.item.deleted', 'conversation.item.added', 'conversation.item.truncated', 'conversation.item.input_audio_transcription.completed', 'conversation.item.input_audio_transcription.updated', 'input_audio_buffer.dtmf_event_received', 'response.created', 'response.output_item.added', 'response.output_item.done', 'response.content_part.added', 'response.content_part.done', 'response.output_audio_transcript.delta', 'response.output_audio_transcript.done', 'response.output_audio.delta', 'response.output_audio.done', 'response.text.delta', 'response.output_text.delta', 'response.function_call_arguments.delta', 'response.function_call_arguments.done', 'mcp_list_tools.in_progress', 'mcp_list_tools.completed', 'mcp_list_tools.failed', 'response.mcp_call_arguments.delta', 'response.mcp_call_arguments.done', 'response.mcp_call.in_progress', 'response.mcp_call.completed', 'response.mcp_call.failed', 'response.done', 'error'];
    for (const t of spec) expect(REALTIME_SERVER_TYPES, t).toContain(t);
  });

  it('validates the client events of §2.2 and reports a bad payload', () => {
    const client = [
      { type: 'session.update', event_id: 'evt_client_1', session: { instructions: 'You are a helpful assistant.', voice: 'eve', turn_detection: { type: 'server_vad', threshold: 0.85, prefix_padding_ms: 333, silence_duration_ms: 500, idle_timeout_ms: 8000 }, audio: { input: { format: { type: 'audio/pcm', rate: 24000 }, transcription: { model: 'svc-transcribe' }, transport: 'json' }, output: { format: { type: 'audio/pcm', rate: 24000 }, speed: 1.0 } }, tools: [{ type: 'function', name: 'get_weather', parameters: {} }, { type: 'web_search' }], resumption: { enabled: true } } },
      { type: 'session.update', session: { turn_detection: null } },
      { type: 'input_audio_buffer.append', audio: 'AAAA' },
      { type: 'input_audio_buffer.commit' },
      { type: 'input_audio_buffer.clear' },
      { type: 'conversation.item.create', previous_item_id: null, item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hello!' }] } },
      { type: 'conversation.item.create', item: { type: 'function_call_output', call_id: 'call_1', output: '{"temp":21}' } },
      { type: 'conversation.item.create', item: { type: 'force_message', content: [{ type: 'text', text: 'Please hold.' }], interruptible: true, voice: 'ara' } },
      { type: 'conversation.item.delete', item_id: 'item_1' },
      { type: 'conversation.item.truncate', item_id: 'item_1', content_index: 0, audio_end_ms: 1500 },
      { type: 'response.create', response: { modalities: ['text', 'audio'], instructions: '…' } },
      { type: 'response.create' },
      { type: 'response.cancel' },
    ];
    for (const e of client) expect(parseRealtimeClientEvent(e), e.type).toMatchObject({ kind: 'message' });
    expect(parseRealtimeClientEvent({ type: 'conversation.item.truncate', item_id: 'item_1', content_index: 0 })).toMatchObject({ kind: 'invalid', issue: expect.stringContaining('audio_end_ms') });
    expect(parseRealtimeServerEvent({ type: 'response.output_audio.delta', delta: null })).toMatchObject({ kind: 'invalid' });
    expect(parseRealtimeServerEvent({ type: 'response.reasoning.delta', delta: 'x' })).toMatchObject({ kind: 'unknown' });
  });

  it('reads a client secret in the current and the older wrapped shape', () => {
    expect(clientSecretSchema.parse({ value: 'cs_1', expires_at: 1750000300 })).toEqual({ value: 'cs_1', expires_at: 1750000300 });
    expect(clientSecretSchema.parse({ client_secret: { value: 'cs_2', expires_at: 1 } })).toEqual({ value: 'cs_2', expires_at: 1 });
  });
});
