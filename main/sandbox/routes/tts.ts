/**
 * Text to speech (spec "Voice - text to speech", wire-notes §3): `POST /v1/tts` answering the JSON
 * Text-to-speech result (wire-notes rule 1: JSON always, base64 `audio`), the built-in voice list,
 * and the WebSocket `/v1/tts` (tts/stream.ts) whose query is checked before the upgrade.
 */
import { describeViolations } from '../../../shared/validate/chat';
import { BUILT_IN_VOICES } from '../catalogue';
import { SandboxError } from '../errors';
import { sendJson, type Route } from '../route';
import type { SocketRoute } from '../socket-route';
import { checkTtsBody, checkTtsQuery, type TtsSettings } from '../tts/request';
import type { TtsService } from '../tts/service';
import { openTtsStream } from '../tts/stream';
import type { VoiceProfile } from '../tts/voice-profiles';
import { refuse } from './request-checks';

export function ttsRoutes(tts: TtsService): Route[] {
  return [
    {
      method: 'POST',
      path: '/v1/tts',
      async handle(ctx) {
        const checked = checkTtsBody(ctx.body);
        if ('violations' in checked) refuse(checked.violations);
        const result = await tts.synthesize(ctx.team, checked.text, checked.settings, ctx.signal);
        if (ctx.signal.aborted) return;
        sendJson(ctx.res, 200, {
          audio: Buffer.from(result.audio).toString('base64'),
          content_type: result.contentType,
          duration: result.duration,
          ...(checked.settings.withTimestamps ? { audio_timestamps: { graph_chars: result.chars, graph_times: result.times } } : {}),
        });
      },
    },
    { method: 'GET', path: '/v1/tts/voices', handle: (ctx) => sendJson(ctx.res, 200, { voices: BUILT_IN_VOICES }) },
    {
      method: 'GET',
      path: '/v1/tts/voices/:id',
      handle(ctx) {
        const voice = BUILT_IN_VOICES.find((v) => v.voice_id === ctx.params.id.toLowerCase());
        if (!voice) throw new SandboxError(404, `Voice ${ctx.params.id} is not a built-in voice; the built-in voices are ${BUILT_IN_VOICES.map((v) => v.voice_id).join(', ')}. Custom voices are under /v1/custom-voices.`);
        sendJson(ctx.res, 200, voice);
      },
    },
  ];
}

/** The WebSocket: every query parameter checked, the voice and language resolved, before the 101. */
export function ttsSocketRoutes(tts: TtsService, log: (line: string) => void): SocketRoute[] {
  const route: SocketRoute<{ settings: TtsSettings; profile: VoiceProfile }> = {
    path: '/v1/tts',
    // A text.delta may hold 60,000 characters: up to ~240 KB of UTF-8, more with JSON escapes.
    maxPayload: 1024 * 1024,
    check(ctx) {
      const checked = checkTtsQuery(ctx.query);
      if ('violations' in checked) throw new SandboxError(checked.violations.some((v) => v.kind === 'shape') ? 422 : 400, describeViolations(checked.violations));
      const profile = tts.profile(ctx.team, checked.settings.voice);
      if (checked.settings.language.toLowerCase() !== 'auto') tts.language(checked.settings.language, '');
      return { settings: checked.settings, profile };
    },
    open: (ctx, checked) => openTtsStream(tts, ctx, checked.settings, log),
  };
  return [route];
}
