/**
 * The media session kinds the media process loads: one line per kind. main/audio's capture and
 * playback sessions (and the service sockets of live sessions) are added here.
 */
import { SessionKinds } from './session-kinds';
import { speechOutputKind } from './speech-output-session';
import { syntheticKind } from './synthetic-source';
import { transcriptionKind } from './transcription-session';
import { nativeCaptureKind } from './native-capture-session';
import { realtimeCallKind } from './realtime-call-session';

export function mediaSessionKinds(): SessionKinds {
  return new SessionKinds().register(syntheticKind).register(transcriptionKind).register(nativeCaptureKind).register(speechOutputKind).register(realtimeCallKind);
}
