/**
 * Every live session kind the app offers, in one list (the families add theirs here: live
 * transcription, the realtime call, the SIP call). Tests build registries with their own kinds.
 */
import type { LiveKind } from './kind';

export const LIVE_KINDS: ReadonlyArray<LiveKind> = [];
