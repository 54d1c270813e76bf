/**
 * A crashed realtime call's output rebuilt from its recorded events (main/live/realtime-recovered.ts):
 * the transcript both sides as the live call folded it, the answer cut by the kill kept as it was
 * left, a torn or foreign event skipped, our own messages and audio events ignored.
 */
import { describe, expect, it } from 'vitest';
import { recoveredRealtimeOutput } from '../../../../main/live/realtime-recovered';
import type { CapturedEvent } from '../../../../shared/contract/runs';

const json = (t: number, direction: 'in' | 'out', data: unknown): CapturedEvent => ({ t, direction, kind: 'json', data: JSON.stringify(data) });

describe('recoveredRealtimeOutput', () => {
  it('rebuilds the transcript up to the kill from the service messages', () => {
    const events: CapturedEvent[] = [
      json(0, 'in', { type: 'session.created', session: { id: 'sess_1' } }),
      json(10, 'out', { type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'ignored: the service echoes it' }] } }),
      json(12, 'in', { type: 'conversation.item.added', item: { id: 'u1', type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hello there.' }] } }),
      json(20, 'in', { type: 'response.created', response: { id: 'r1' } }),
      json(21, 'in', { type: 'response.output_item.added', response_id: 'r1', item: { id: 'a1', type: 'message' } }),
      { t: 22, direction: 'in', kind: 'audio', data: '(model audio)' },
      json(23, 'in', { type: 'response.output_audio_transcript.delta', item_id: 'a1', delta: 'Hi, ' }),
      json(24, 'in', { type: 'response.output_audio_transcript.done', item_id: 'a1', transcript: 'Hi, how can I help?' }),
      json(25, 'in', { type: 'response.done', response: { id: 'r1', status: 'completed', output: [], usage: { input_tokens: 5, output_tokens: 7, total_tokens: 12 } } }),
      { t: 26, direction: 'in', kind: 'json', data: '{"type":"response.cre' }, // torn by the kill
      json(27, 'in', { type: 'conversation.item.input_audio_transcription.completed', item_id: 'u2', transcript: 'Tell me a story.' }),
      json(28, 'in', { type: 'response.output_audio_transcript.delta', item_id: 'a2', delta: 'Once upon' }),
    ];
    const out = recoveredRealtimeOutput('live_1', events)!;
    const transcript = (out.output as unknown as { transcript: Array<{ role: string; text: string; interim: boolean }> }).transcript;
    expect(transcript.map((e) => [e.role, e.text, e.interim])).toEqual([
      ['user', 'Hello there.', false],
      ['assistant', 'Hi, how can I help?', false],
      ['user', 'Tell me a story.', false],
      ['assistant', 'Once upon', true],
    ]);
    expect(out.outputText).toBe('User: Hello there.\nModel: Hi, how can I help?\nUser: Tell me a story.\nModel: Once upon');
    expect(out.outputPreview).toBe(out.outputText);
    expect(out.output).toMatchObject({ object: 'realtime_call', recovered: true, usage: { responses: 1, inputTokens: 5, outputTokens: 7 } });
  });

  it('gives nothing for a call with no service message recorded', () => {
    expect(recoveredRealtimeOutput('live_2', [json(0, 'out', { type: 'session.update' })])).toBeNull();
  });
});
