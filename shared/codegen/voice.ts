/**
 * The voice families' code exporters, one per recorded endpoint, for their endpoint descriptors'
 * `code.exporter` (shared/families/<f>/family.ts): speech, transcription and voices import the
 * one each endpoint names. Pure: no descriptor is imported here (shared/families/index.ts imports
 * the families, which import this).
 *
 * | endpoint (method path)                    | exporter                  |
 * | POST   /v1/tts                            | VOICE_CODE.tts            |
 * | GET    /v1/tts (WebSocket)                | VOICE_CODE.ttsSocket      |
 * | GET    /v1/tts/voices, /v1/tts/voices/{id}| VOICE_CODE.json           |
 * | POST   /v1/stt (multipart)                | VOICE_CODE.stt            |
 * | GET    /v1/stt (WebSocket)                | VOICE_CODE.sttSocket      |
 * | POST   /v1/custom-voices (multipart)      | VOICE_CODE.voiceCreate    |
 * | GET    /v1/custom-voices[/{id}]           | VOICE_CODE.json           |
 * | PATCH  /v1/custom-voices/{id}             | VOICE_CODE.json           |
 * | DELETE /v1/custom-voices/{id}             | VOICE_CODE.json           |
 * | GET    /v1/custom-voices/{id}/audio       | VOICE_CODE.voiceAudio     |
 */
import type { CodeExporter } from '../families/types';
import { TTS_EXPORTER } from './voice-tts';
import { TTS_SOCKET_EXPORTER } from './voice-tts-socket';
import { STT_EXPORTER } from './voice-stt';
import { STT_SOCKET_EXPORTER } from './voice-stt-socket';
import { VOICE_AUDIO_EXPORTER, VOICE_CREATE_EXPORTER, VOICE_JSON_EXPORTER } from './voice-voices';

export const VOICE_CODE = {
  tts: TTS_EXPORTER,
  ttsSocket: TTS_SOCKET_EXPORTER,
  stt: STT_EXPORTER,
  sttSocket: STT_SOCKET_EXPORTER,
  voiceCreate: VOICE_CREATE_EXPORTER,
  voiceAudio: VOICE_AUDIO_EXPORTER,
  json: VOICE_JSON_EXPORTER,
} as const satisfies Record<string, CodeExporter>;
