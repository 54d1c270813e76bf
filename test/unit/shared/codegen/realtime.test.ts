/**
 * realtimeSessionCode: the session's settings land in the messages both programs send, the key is
 * never written, sessions a program cannot run are refused with a reason, and curl / SDK tabs say
 * which tab to use. Running the programs is test/integration/codegen/realtime-execute.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { realtimeSessionCode } from '../../../../shared/codegen/realtime-code';
import { realtimeMessages } from '../../../../shared/codegen/realtime-session';

function code(result: { code: string } | { unsupported: string }): string {
  if (!('code' in result)) throw new Error(result.unsupported);
  return result.code;
}

describe('realtimeMessages', () => {
  it('puts voice, instructions, VAD parameters, formats and tools in session.update', () => {
    const m = realtimeMessages({
      model: 'svc-voice-fast-1.0',
      voice: 'sal',
      instructions: 'Be brief.',
      turnDetection: { type: 'server_vad', threshold: 0.5, prefixPaddingMs: 200, silenceDurationMs: 700, idleTimeoutMs: 8000 },
      inputFormat: { type: 'audio/pcm', rate: 16000 },
      outputFormat: { type: 'audio/pcma' },
      tools: [{ name: 'lookup', parameters: { type: 'object', properties: { id: { type: 'string' } } } }],
      secretSeconds: 120,
    });
    expect(m.socketPath).toBe('/v1/realtime?model=svc-voice-fast-1.0');
    expect(m.clientSecretRequest).toEqual({ expires_after: { seconds: 120 } });
    expect(m.sessionUpdate.session).toEqual({
      instructions: 'Be brief.',
      voice: 'sal',
      turn_detection: { type: 'server_vad', threshold: 0.5, prefix_padding_ms: 200, silence_duration_ms: 700, idle_timeout_ms: 8000 },
      audio: { input: { format: { type: 'audio/pcm', rate: 16000 } }, output: { format: { type: 'audio/pcma', rate: 8000 } } },
      tools: [{ type: 'function', name: 'lookup', description: '', parameters: { type: 'object', properties: { id: { type: 'string' } } } }],
    });
    // 20 ms of 16 kHz 16-bit PCM; A-law out is 8-bit, WAV tag 6.
    expect(m.input).toMatchObject({ chunkBytes: 640, wavTag: 1, silenceByte: 0 });
    expect(m.output).toMatchObject({ wavTag: 6, bitsPerSample: 8 });
    expect(m.manual).toBe(false);
    expect(m.afterAudio).toEqual([]);
  });

  it('manual turns commit and ask for the response after the audio', () => {
    const m = realtimeMessages({ turnDetection: null, inputFormat: { type: 'audio/pcmu' } });
    expect(m.sessionUpdate.session.turn_detection).toBeNull();
    expect(m.afterAudio).toEqual([{ type: 'input_audio_buffer.commit' }, { type: 'response.create' }]);
    expect(m.input).toMatchObject({ chunkBytes: 160, silenceByte: 0xff, wavTag: 7 });
  });
});

describe('realtimeSessionCode', () => {
  it('writes both programs without the key, reading it from the environment', () => {
    for (const lang of ['typescript', 'python'] as const) {
      const snippet = code(realtimeSessionCode({ voice: 'eve' }, lang, { baseUrl: 'http://127.0.0.1:4010/v1', apiKeyEnv: 'MY_KEY' }));
      expect(snippet).toContain('MY_KEY');
      expect(snippet).toContain('"http://127.0.0.1:4010"');
      expect(snippet).toContain('svc-client-secret.');
      expect(snippet).toContain('/v1/realtime/client_secrets');
    }
    expect(code(realtimeSessionCode({}, 'typescript', { shownApiKey: 'sk-sandbox-shown' }))).toContain("export WORKBENCH_API_KEY='sk-sandbox-shown'");
  });

  it('refuses what a program cannot run, saying why', () => {
    expect(realtimeSessionCode({ inputFormat: { type: 'audio/opus' as never } }, 'python')).toEqual({ unsupported: expect.stringMatching(/input format audio\/opus cannot be exported/) });
    expect(realtimeSessionCode({ outputFormat: { type: 'audio/pcm', rate: 11025 } }, 'typescript')).toEqual({ unsupported: expect.stringMatching(/11025 Hz is not one of/) });
    expect(realtimeSessionCode({ secretSeconds: 7200 }, 'typescript')).toEqual({ unsupported: expect.stringMatching(/1 to 3600 seconds/) });
    expect(realtimeSessionCode({ tools: [{ name: 'a b' }] }, 'typescript')).toEqual({ unsupported: expect.stringMatching(/tool name "a b"/) });
    expect(realtimeSessionCode({}, 'curl')).toEqual({ unsupported: expect.stringMatching(/curl cannot hold a WebSocket/) });
    expect('unsupported' in realtimeSessionCode({}, 'python-sdk')).toBe(true);
  });
});
