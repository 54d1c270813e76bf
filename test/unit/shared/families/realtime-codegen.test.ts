/**
 * A recorded realtime call exported from History: the run's recorded session.update body is read
 * back into the call's input, so every language gives what realtimeSessionCode gives for that
 * input (the WebSocket programs, not a curl of the socket path), with the recorded service's root.
 */
import { describe, expect, it } from 'vitest';
import type { CapturedRequest } from '../../../../shared/contract/runs';
import { exportCode } from '../../../../shared/codegen/export';
import { realtimeSessionCode } from '../../../../shared/codegen/realtime-code';
import { recordedCallInput } from '../../../../shared/families/realtime/codegen';
import { RealtimeCallInputSchema, realtimeSessionBody, type RealtimeCallInputDraft } from '../../../../shared/realtime-call';

const draft: RealtimeCallInputDraft = {
  model: 'svc-voice-fast-1.0',
  voice: 'sal',
  instructions: 'Be brief.',
  turnDetection: { type: 'server_vad', threshold: 0.6, prefix_padding_ms: 200, silence_duration_ms: 700 },
  formats: { input: { type: 'audio/pcm', rate: 16000 }, output: { type: 'audio/pcmu', rate: 8000 } },
  inputTranscription: { model: 'svc-transcribe' },
  tools: [{ name: 'lookup', description: 'Finds a record', parameters: { type: 'object', properties: { id: { type: 'string' } } } }],
  toolChoice: { name: 'lookup' },
};

/** The run's request as main/live/realtime.ts records it. */
function recorded(input: RealtimeCallInputDraft, url = 'ws://127.0.0.1:4555/v1/realtime?model=svc-voice-fast-1.0', callId?: string): CapturedRequest {
  const parsed = RealtimeCallInputSchema.parse(input);
  const formats = { input: { type: 'audio/pcm', rate: 16000 }, output: { type: 'audio/pcmu', rate: 8000 } };
  return { method: 'GET', url, headers: {}, body: JSON.stringify({ session: realtimeSessionBody(parsed, formats), ...(callId ? { call_id: callId } : {}) }) };
}

describe('realtime.call code export', () => {
  it('reads the recorded session back into the call input', () => {
    const read = recordedCallInput(recorded(draft));
    if ('unsupported' in read) throw new Error(read.unsupported);
    expect(read.root).toBe('http://127.0.0.1:4555');
    expect(RealtimeCallInputSchema.parse(read.input)).toEqual(RealtimeCallInputSchema.parse(draft));
  });

  it('Python and TypeScript are the WebSocket programs for that input, on the recorded service', () => {
    for (const lang of ['python', 'typescript'] as const) {
      const out = exportCode(recorded(draft), { lang });
      expect(out).toEqual(realtimeSessionCode(draft, lang, { baseUrl: 'http://127.0.0.1:4555' }));
      const text = (out as { code: string }).code;
      expect(text).toContain('session.update');
      expect(text).toContain('Be brief.');
      expect(text).toContain('127.0.0.1:4555');
    }
  });

  it('a SIP call exports the same program; a configured base URL wins over the recorded one', () => {
    const out = exportCode(recorded(draft, 'ws://127.0.0.1:4555/v1/realtime', 'rtc_1'), { lang: 'typescript', baseUrl: 'https://api.example.test/v1' });
    const text = (out as { code: string }).code;
    expect(text).toContain('https://api.example.test');
    expect(text).not.toContain('rtc_1');
  });

  it('curl and the SDK tabs say why instead of a curl of the socket path', () => {
    const curl = exportCode(recorded(draft), { lang: 'curl' });
    expect(curl).toEqual({ unsupported: expect.stringMatching(/WebSocket/) });
    expect(exportCode(recorded(draft), { lang: 'python-sdk' })).toEqual({ unsupported: expect.stringMatching(/Python or TypeScript/) });
  });

  it('a run recorded without its session says so', () => {
    expect(exportCode({ method: 'GET', url: 'ws://h/v1/realtime', headers: {}, body: null }, { lang: 'python' })).toEqual({ unsupported: expect.stringMatching(/without its session/) });
  });
});
