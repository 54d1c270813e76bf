/**
 * Records from a native microphone for a voice clone, with the page microphone's shape
 * (PageCapture.start's options and result) so MicRecorder treats both alike. Main's
 * `voice-recording` live session has the media process capture the device; its 20 ms PCM16
 * frames and levels come straight from the media channel (the snapshot's `pcm` and `levels`
 * streams), never through main. A device that fails mid-recording ends it with the device's
 * explanation (`onError`); dispose() stops the session.
 */
import type { AudioResult } from '@shared/audio/errors';
import type { LiveAttachChunk } from '@shared/contract/live';
import { applyVoiceRecordingEvent, VOICE_RECORDING_KIND, type VoiceRecordingEvent, type VoiceRecordingInput, type VoiceRecordingSnapshot } from '@shared/voice-recording';
import type { PageCaptureOptions } from '../../../audio/page-capture';
import type { MediaChannel } from '../../../bridge/media';
import { toWorkbenchError } from '../../../lib/errors';
import { useLiveSessionsStore } from '../../../stores/live-sessions';

export type StartCapture = (options: PageCaptureOptions) => Promise<AudioResult<{ dispose(): Promise<void> }>>;

/** The page's media channel, loaded on first use (importing the bridge connects to main). */
async function defaultChannel(): Promise<MediaChannel> {
  return (await import('../../../bridge/media')).mediaChannel();
}

export function nativeCapture(device: string | undefined, channel: () => Promise<MediaChannel> = defaultChannel): StartCapture {
  return async (options) => {
    const live = useLiveSessionsStore();
    let state: VoiceRecordingSnapshot | null = null;
    const offs: Array<() => void> = [];
    let failed = false;
    let seq = 0;
    const release = () => offs.splice(0).forEach((off) => off());
    const wire = async (snap: VoiceRecordingSnapshot) => {
      const ch = await channel();
      if (offs.length > 0 || snap.status !== 'recording') return;
      offs.push(
        ch.onFrame(snap.streams.pcm, (frame) => {
          const bytes = frame.payload.slice();
          const pcm = new Int16Array(bytes.buffer, 0, bytes.byteLength >> 1);
          const n = seq++;
          options.onFrame({ seq: n, pcm, sampleRate: snap.sampleRate, channels: 1, startMs: n * 20, capturedAt: frame.timestamp });
        }),
        ch.onFrame(snap.streams.levels, (frame) => {
          if (frame.payload.byteLength < 8) return;
          const view = new DataView(frame.payload.buffer, frame.payload.byteOffset, 8);
          const rmsDbfs = view.getFloat32(0);
          const peakDbfs = view.getFloat32(4);
          options.onLevel?.({ rms: 10 ** (rmsDbfs / 20), peak: 10 ** (peakDbfs / 20), rmsDbfs, peakDbfs });
        }),
      );
    };
    const onChunk = (chunk: LiveAttachChunk) => {
      if (chunk.type === 'snapshot') {
        state = structuredClone(chunk.snapshot as VoiceRecordingSnapshot);
        void wire(state);
      } else if (chunk.type === 'event' && state) {
        applyVoiceRecordingEvent(state, chunk.event as VoiceRecordingEvent);
        if (state.status === 'failed' && !failed) {
          failed = true;
          release();
          options.onError?.({ code: 'device_lost', message: state.end?.message ?? 'The native microphone stopped.' });
        } else if (state.status === 'ended') release();
      }
    };
    const input: VoiceRecordingInput = { ...(device ? { device } : {}), sampleRate: options.sampleRate };
    let id: string;
    try {
      id = (await live.start(VOICE_RECORDING_KIND, input, onChunk)).id;
    } catch (err) {
      return { ok: false, error: { code: 'device_error', message: toWorkbenchError(err).message } };
    }
    return {
      ok: true,
      value: {
        async dispose() {
          release();
          try {
            await live.stop(id);
          } catch {
            // Already ended (the limit, the device): nothing left to stop.
          }
        },
      },
    };
  };
}
