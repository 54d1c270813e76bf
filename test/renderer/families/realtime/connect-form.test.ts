/**
 * The connect form: what keeps Start disabled (said with the allowed range), the live kind's input
 * it builds (VAD or push-to-talk, G.711 at 8 kHz, the auto-responder's replies from the tools'
 * saved replies with injected latency or error), and the client secret's countdown.
 */
import { describe, expect, it } from 'vitest';
import { RealtimeCallInputSchema } from '@shared/realtime-call';
import { autoRepliesOf, callInputOf, defaultConnectForm, formProblems, secretCountdown, type ConnectForm } from '@/families/realtime/lib/connect-form';

const form = (over: Partial<ConnectForm> = {}): ConnectForm => ({ ...defaultConnectForm(), ...over });
const tool = (name: string, savedReply?: string) => ({ name, description: '', parameters: { type: 'object', properties: {} }, ...(savedReply !== undefined ? { savedReply } : {}) });

describe('connect-form', () => {
  describe('formProblems()', () => {
    it('has none for the defaults', () => {
      expect(formProblems(form())).toEqual([]);
    });

    it('says each value out of the spec range, and only checks VAD values with server VAD', () => {
      const bad = form({ auth: 'client-secret', secretSeconds: 7200, threshold: 0.95, prefixPaddingMs: -1, silenceDurationMs: 20_000, inputRate: 11_025 });
      expect(formProblems(bad)).toEqual([
        'A client secret lives 1 to 3600 seconds.',
        'The VAD threshold is 0.1 to 0.9.',
        'Prefix padding is 0 to 10000 ms.',
        'Silence duration is 0 to 10000 ms.',
        'The input PCM rate is one of 8000, 16000, 22050, 24000, 32000, 44100, 48000 Hz.',
      ]);
      expect(formProblems({ ...bad, turn: 'push-to-talk', auth: 'key', inputRate: 16_000 })).toEqual([]);
    });

    it("refuses G.711 with the page's microphone or speakers, and tools without a name or with the same name", () => {
      expect(formProblems(form({ inputFormat: 'audio/pcmu', outputFormat: 'audio/pcma', tools: [tool(''), tool('a'), tool('a')] }))).toEqual([
        "The page's microphone sends PCM: choose audio/pcm for the input, or a native microphone.",
        "The page's speakers play PCM: choose audio/pcm for the output, or native speakers.",
        'Every tool needs a name.',
        'Two tools are called a.',
      ]);
      expect(formProblems(form({ inputFormat: 'audio/pcmu', microphone: { kind: 'native' } }))).toEqual([]);
    });
  });

  describe('callInputOf()', () => {
    it('builds server VAD with its parameters, both formats, input transcription and the tools', () => {
      const input = callInputOf(form({ voice: 'alloy', instructions: 'Be brief.', tools: [tool('lookup', '{"ok":true}')], microphone: { kind: 'native', device: 'hw:1' } }), 'conn_1');
      expect(input).toEqual({
        connectionId: 'conn_1',
        auth: 'key',
        model: 'svc-voice-latest',
        voice: 'alloy',
        instructions: 'Be brief.',
        turnDetection: { type: 'server_vad', threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: 500 },
        formats: { input: { type: 'audio/pcm', rate: 24_000 }, output: { type: 'audio/pcm', rate: 24_000 } },
        inputTranscription: { model: 'svc-transcribe' },
        tools: [tool('lookup', '{"ok":true}')],
        autoReplies: { lookup: { output: '{"ok":true}' } },
        microphone: { kind: 'native', device: 'hw:1' },
        output: { kind: 'page' },
      });
    });

    it('gives push-to-talk as no turn detection, a client secret with its lifetime, G.711 at 8 kHz', () => {
      const input = callInputOf(form({ turn: 'push-to-talk', auth: 'client-secret', secretSeconds: 120, inputFormat: 'audio/pcmu', inputRate: 24_000, transcribeInput: false }));
      expect({ turn: input.turnDetection, auth: input.auth, seconds: input.clientSecretSeconds, input: input.formats?.input, transcription: input.inputTranscription }).toEqual({
        turn: null,
        auth: 'client-secret',
        seconds: 120,
        input: { type: 'audio/pcmu', rate: 8000 },
        transcription: null,
      });
    });
  });

  it("builds inputs the realtime kind's schema accepts, for every form without problems", () => {
    const forms = [
      form(),
      form({ turn: 'push-to-talk', auth: 'client-secret', secretSeconds: 3600 }),
      form({ inputFormat: 'audio/pcma', outputFormat: 'audio/pcmu', microphone: { kind: 'native' }, output: { kind: 'native', device: 'hw:0' } }),
      form({ tools: [tool('lookup', 'x')], replyLatencyMs: 60_000, replyError: 'down', inputRate: 8_000, outputRate: 48_000 }),
    ];
    for (const f of forms) {
      expect(formProblems(f)).toEqual([]);
      const parsed = RealtimeCallInputSchema.safeParse(callInputOf(f));
      expect(parsed.error?.issues ?? []).toEqual([]);
    }
  });

  describe('autoRepliesOf()', () => {
    it('answers only tools with a saved reply, each with the injected latency or error; none when answering by hand', () => {
      const tools = [tool('weather', '{"temp":21}'), tool('manual')];
      expect(autoRepliesOf({ tools, autoRespond: true, replyLatencyMs: 800, replyError: ' boom ' })).toEqual({ weather: { output: '{"temp":21}', latencyMs: 800, error: 'boom' } });
      expect(autoRepliesOf({ tools, autoRespond: false, replyLatencyMs: 0, replyError: '' })).toEqual({});
    });
  });

  describe('secretCountdown()', () => {
    it('counts down m:ss to the expiry and says when it expired', () => {
      const expires = 1_000_000;
      expect(secretCountdown(expires, (expires - 598.4) * 1000)).toEqual({ text: '9:58', expired: false, seconds: 598 });
      expect(secretCountdown(expires, expires * 1000 + 5)).toEqual({ text: 'expired', expired: true, seconds: 0 });
    });
  });
});
