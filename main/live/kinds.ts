/**
 * Every live session kind the app offers, in one list (the families add theirs here: live
 * transcription, the realtime call, the SIP call). Kinds that need the app's services get them
 * through `LiveKindDeps` (main/app.ts builds it). Tests build registries with their own kinds.
 */
import type { LiveKind } from './kind';
import { sipCallLiveKind, type SipCallKindDeps } from './sip-call';
import { transcriptionLiveKind, type TranscriptionKindDeps } from './transcription';
import { voiceRecordingLiveKind } from './voice-recording';
import { realtimeLiveKind, type RealtimeKindDeps } from './realtime';

export type LiveKindDeps = TranscriptionKindDeps & RealtimeKindDeps;

export function liveKinds(deps: LiveKindDeps | null, sip: SipCallKindDeps | null = null): ReadonlyArray<LiveKind> {
  // A SIP call rings and is declined or transferred without any audio of ours: it needs no media process.
  const calls = sip ? [sipCallLiveKind(sip) as unknown as LiveKind] : [];
  // Without a media process (a shell that runs none) there is no live audio to offer.
  if (!deps) return calls;
  return [transcriptionLiveKind(deps) as unknown as LiveKind, voiceRecordingLiveKind(deps) as unknown as LiveKind, realtimeLiveKind(deps) as unknown as LiveKind, ...calls];
}
