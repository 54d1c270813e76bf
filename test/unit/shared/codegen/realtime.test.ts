/**
 * realtimeSessionCode / realtimeMessages: the call input's settings land in the messages both
 * programs send (session.update exactly as the app builds it for that input), saved replies become
 * the tools' answers, the key is never written, an input that breaks its schema is refused with
 * the reason, and curl / SDK tabs say which tab to use. Running the programs is
 * test/integration/codegen/realtime-execute.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { realtimeSessionCode } from '../../../../shared/codegen/realtime-code';
import { realtimeMessages } from '../../../../shared/codegen/realtime-session';
import { RealtimeCallInputSchema, realtimeSessionBody, type RealtimeCallInputDraft } from '../../../../shared/realtime-call';

function code(result: { code: string } | { unsupported: string }): string {
  if (!('code' in result)) throw new Error(result.unsupported);
  return result.code;
}

const draft: RealtimeCallInputDraft = {
  model: 'svc-voice-fast-1.0',
  reasoningEffort: 'none',
  voice: 'sal',
  instructions: 'Be brief.',
  turnDetection: { type: 'server_vad', threshold: 0.5, prefix_padding_ms: 200, silence_duration_ms: 700, idle_timeout_ms: 8000 },
  formats: { input: { type: 'audio/pcm', rate: 16000 }, output: { type: 'audio/pcma' } },
  tools: [
    { name: 'lookup', description: 'Finds a record', parameters: { type: 'object', properties: { id: { type: 'string' } } } },
    { name: 'transfer', description: '', parameters: { type: 'object', properties: {} }, savedReply: '{"ok":true}' },
  ],
  autoReplies: { lookup: { output: '{"id":"A1","name":"Ada"}' } },
  auth: 'client-secret',
  clientSecretSeconds: 120,
};

describe('realtimeMessages', () => {
  it('sends the session the app sends for this input, the model in the query, the secret for its lifetime', () => {
    const input = RealtimeCallInputSchema.parse(draft);
    const m = realtimeMessages(input);
    expect(m.socketPath).toBe('/v1/realtime?model=svc-voice-fast-1.0&reasoning.effort=none');
    expect(m.clientSecretRequest).toEqual({ expires_after: { seconds: 120 } });
    expect(m.sessionUpdate).toEqual({ type: 'session.update', session: realtimeSessionBody(input, { input: { type: 'audio/pcm', rate: 16000 }, output: { type: 'audio/pcma', rate: 8000 } }) });
    expect(m.sessionUpdate.session).toMatchObject({ instructions: 'Be brief.', audio: { input: { turn_detection: { threshold: 0.5, silence_duration_ms: 700 } }, output: { voice: 'sal' } } });
    // 20 ms of 16 kHz 16-bit PCM; A-law out is 8-bit, WAV tag 6.
    expect(m.input).toMatchObject({ chunkBytes: 640, wavTag: 1, silenceByte: 0 });
    expect(m.output).toMatchObject({ wavTag: 6, bitsPerSample: 8 });
    expect(m.manual).toBe(false);
    expect(m.afterAudio).toEqual([]);
    // The auto-responder's reply first, else the tools panel's saved one.
    expect(m.tools).toEqual([
      { name: 'lookup', reply: '{"id":"A1","name":"Ada"}' },
      { name: 'transfer', reply: '{"ok":true}' },
    ]);
  });

  it('push-to-talk commits and asks for the response after the audio', () => {
    const m = realtimeMessages(RealtimeCallInputSchema.parse({ turnDetection: null, formats: { input: { type: 'audio/pcmu' } } }));
    expect((m.sessionUpdate.session.audio as { input: { turn_detection: unknown } }).input.turn_detection).toBeNull();
    expect(m.afterAudio).toEqual([{ type: 'input_audio_buffer.commit' }, { type: 'response.create' }]);
    expect(m.input).toMatchObject({ chunkBytes: 160, silenceByte: 0xff, wavTag: 7 });
    expect(m.socketPath).toBe('/v1/realtime');
  });
});

describe('realtimeSessionCode', () => {
  it('writes both programs without the key, reading it from the environment, with the saved replies', () => {
    for (const lang of ['typescript', 'python'] as const) {
      const snippet = code(realtimeSessionCode(draft, lang, { baseUrl: 'http://127.0.0.1:4010/v1', apiKeyEnv: 'MY_KEY' }));
      expect(snippet).toContain('MY_KEY');
      expect(snippet).toContain('"http://127.0.0.1:4010"');
      expect(snippet).toContain('svc-client-secret.');
      expect(snippet).toContain('/v1/realtime/client_secrets');
      expect(snippet).toContain(JSON.stringify('{"id":"A1","name":"Ada"}'));
    }
    expect(code(realtimeSessionCode({}, 'typescript', { shownApiKey: 'sk-sandbox-shown' }))).toContain("export WORKBENCH_API_KEY='sk-sandbox-shown'");
  });

  it('exports a SIP call or a key-authenticated session as a program that mints its own secret', () => {
    expect('code' in realtimeSessionCode({ callId: 'rtc_1', auth: 'key' }, 'python')).toBe(true);
  });

  it('refuses an input that breaks its rules, saying why, and points curl and the SDK tabs elsewhere', () => {
    expect(realtimeSessionCode({ formats: { output: { type: 'audio/pcm', rate: 11025 as never } } }, 'typescript')).toEqual({ unsupported: expect.stringMatching(/^The session cannot be exported: formats.output.rate: audio\/pcm rates are 8000/) });
    expect(realtimeSessionCode({ clientSecretSeconds: 7200 }, 'typescript')).toEqual({ unsupported: expect.stringMatching(/clientSecretSeconds/) });
    expect(realtimeSessionCode({}, 'curl')).toEqual({ unsupported: expect.stringMatching(/curl cannot hold a WebSocket/) });
    expect('unsupported' in realtimeSessionCode({}, 'python-sdk')).toBe(true);
  });
});
