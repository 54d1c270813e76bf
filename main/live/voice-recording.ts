/**
 * The `voice-recording` live kind: a native microphone for a voice clone's reference clip. The
 * media process runs the `native-capture` session (main/audio Capture off main's event loop) and
 * the page reads its frames straight from the media channel (the snapshot's `pcm` and `levels`
 * streams): the audio never passes through main, which only starts, stops and reports the end
 * (the limit reached, or the device failing, in the device's words). Nothing is recorded here:
 * the clip becomes part of the clone the user then creates.
 */
import { applyVoiceRecordingEvent, VOICE_RECORDING_KIND, VoiceRecordingControlSchema, VoiceRecordingInputSchema, type VoiceRecordingEvent, type VoiceRecordingSnapshot } from '../../shared/voice-recording';
import { WorkbenchFailure } from '../../shared/contract/errors';
import type { MediaPlane, MediaPlaneEvent } from '../media/media-plane';
import { defineLiveKind } from './kind';

export interface VoiceRecordingKindDeps {
  media: Pick<MediaPlane, 'startSession' | 'stopSession' | 'onEvent'>;
}

export function voiceRecordingLiveKind(deps: VoiceRecordingKindDeps) {
  return defineLiveKind({
    id: VOICE_RECORDING_KIND,
    input: VoiceRecordingInputSchema,
    control: VoiceRecordingControlSchema,
    async start(ctx) {
      const mediaId = `rec-${ctx.id}`;
      const state: VoiceRecordingSnapshot = { status: 'recording', device: null, sampleRate: ctx.input.sampleRate, streams: { pcm: -1, levels: -1 }, end: null };
      const emit = (event: VoiceRecordingEvent) => {
        applyVoiceRecordingEvent(state, event);
        ctx.emit(event);
      };
      let atLimit = false;
      let endedByMedia = false;
      const off = deps.media.onEvent((e: MediaPlaneEvent) => {
        if (!('sessionId' in e) || e.sessionId !== mediaId) return;
        if (e.type === 'session-event') {
          if (e.event === 'device') emit({ type: 'device', name: String((e.data as { name?: unknown }).name ?? '') });
          if (e.event === 'ended-at-limit') atLimit = true;
          return;
        }
        if (e.type !== 'session-ended') return;
        endedByMedia = true;
        if (e.error) {
          emit({ type: 'failed', message: e.error.message });
          ctx.end({ code: 'internal', message: e.error.message });
        } else {
          emit({ type: 'ended', atLimit });
          ctx.end();
        }
      });
      const started = await deps.media.startSession(mediaId, 'native-capture', {
        ...(ctx.input.device ? { device: ctx.input.device } : {}),
        sampleRate: ctx.input.sampleRate,
        maxMs: ctx.input.maxMs,
      });
      if (!started.ok) {
        off();
        throw new WorkbenchFailure(started.error);
      }
      state.streams = { pcm: started.value.streams.pcm ?? -1, levels: started.value.streams.levels ?? -1 };
      ctx.setState('recording');
      return {
        snapshot: () => structuredClone(state),
        control() {},
        async stop() {
          off();
          if (endedByMedia) return;
          await deps.media.stopSession(mediaId);
          emit({ type: 'ended', atLimit: false });
        },
      };
    },
  });
}
