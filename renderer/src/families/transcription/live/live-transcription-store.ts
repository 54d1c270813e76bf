/**
 * The live microphone of the Transcription playground: one live transcription session (main's
 * `transcription` live kind) this tab started or re-attached to after a reload.
 *
 * The session lives in main; this store holds the attachment (through the live-sessions store, so
 * a reload re-attaches and gets the transcript so far as a snapshot), folds its events onto that
 * snapshot with the same function main uses (shared/live-transcription.ts), runs the page's
 * microphone when the user chose it (PageCapture frames go straight to the media process on the
 * snapshot's `mic` stream, never through main) and reads the level meter from the `levels` stream.
 */
import { defineStore } from 'pinia';
import { ref, shallowRef, triggerRef } from 'vue';
import type { WorkbenchError } from '@shared/contract/errors';
import type { LiveAttachChunk } from '@shared/contract/live';
import { MIN_DBFS } from '@shared/audio/levels';
import { FrameKind } from '@shared/media-frames/frame';
import {
  LIVE_TRANSCRIPTION_KIND,
  applyTranscriptionEvent,
  type LiveSttQuery,
  type LiveTranscriptionEvent,
  type LiveTranscriptionInput,
  type LiveTranscriptionSnapshot,
} from '@shared/live-transcription';
import type { PageCapture } from '../../../audio/page-capture';
import { startPageMicrophone } from '../../../audio/page-microphone';
import type { MediaChannel } from '../../../bridge/media';
import { chooseFiles } from '../../../bridge/user-files';
import { useWorkbench } from '../../../api';
import { toWorkbenchError } from '../../../lib/errors';
import { useLiveSessionsStore } from '../../../stores/live-sessions';
import { useAudioDevicesStore } from '../../../stores/audio-devices';

/** sessionStorage: the session this tab's panel shows (a reload shows it again). */
export const LIVE_TRANSCRIPTION_KEY = 'workbench.transcription.live';

function remembered(): string | null {
  try {
    return window.sessionStorage.getItem(LIVE_TRANSCRIPTION_KEY);
  } catch {
    return null;
  }
}
function remember(id: string | null): void {
  try {
    if (id) window.sessionStorage.setItem(LIVE_TRANSCRIPTION_KEY, id);
    else window.sessionStorage.removeItem(LIVE_TRANSCRIPTION_KEY);
  } catch {
    // No storage: the panel just won't find its session after a reload (it still runs in main).
  }
}

export const useLiveTranscriptionStore = defineStore('transcription-live', () => {
  const live = useLiveSessionsStore();
  const sessionId = ref<string | null>(null);
  /** The transcript and status as of the last event (snapshot + events since). */
  const state = shallowRef<LiveTranscriptionSnapshot | null>(null);
  /** The microphone level in dBFS (rms), MIN_DBFS when silent or unknown. */
  const levelDbfs = ref(MIN_DBFS);
  const error = shallowRef<WorkbenchError | null>(null);
  const starting = ref(false);
  let capture: PageCapture | null = null;
  let offLevels: (() => void) | null = null;
  let micStream = -1;

  function onChunk(chunk: LiveAttachChunk): void {
    if (chunk.type === 'snapshot') {
      state.value = structuredClone(chunk.snapshot as LiveTranscriptionSnapshot);
      void wireMedia();
    } else if (chunk.type === 'event' && state.value) {
      applyTranscriptionEvent(state.value, chunk.event as LiveTranscriptionEvent);
      triggerRef(state);
      if (state.value.status === 'ended' || state.value.status === 'failed') void releaseMedia();
    } else if (chunk.type === 'error') {
      error.value = chunk.error;
    }
  }

  /**
   * The page's media channel, loaded when a session first needs it: importing the bridge opens
   * the page's connection to main, which a view merely showing this panel has no reason to do.
   */
  async function mediaChannel(): Promise<MediaChannel> {
    return (await import('../../../bridge/media')).mediaChannel();
  }

  /** Levels in, and the page's microphone out when the session takes it from the page. */
  async function wireMedia(): Promise<void> {
    const snap = state.value;
    if (!snap || snap.status === 'ended' || snap.status === 'failed') return releaseMedia();
    if (snap.streams.levels < 0 && (snap.source.kind !== 'page' || snap.streams.mic < 0)) return;
    const channel = await mediaChannel();
    if (!offLevels && snap.streams.levels >= 0) {
      offLevels = channel.onFrame(snap.streams.levels, (frame) => {
        if (frame.payload.byteLength >= 4) levelDbfs.value = new DataView(frame.payload.buffer, frame.payload.byteOffset, 4).getFloat32(0);
      });
    }
    if (snap.source.kind !== 'page' || capture || micStream === snap.streams.mic) return;
    micStream = snap.streams.mic;
    const started = await startPageMicrophone({
      sampleRate: snap.sampleRate,
      // The session says how many channels it carries (a snapshot from before stereo says none: mono).
      channels: snap.audioChannels === 2 ? 2 : 1,
      // The page microphone the user picked (a snapshot from before the picker listed them: the default).
      deviceId: snap.source.device ?? null,
      send: (pcm) => channel.send(micStream, FrameKind.Data, pcm),
      onFailed: (e) => void micFailed(e.message),
    });
    if (!started.ok) {
      micStream = -1;
      await micFailed(started.error.message);
      return;
    }
    capture = started.value;
    useAudioDevicesStore().pageAllowed();
  }

  /**
   * The page's microphone was refused, is missing, or went away mid-stream: say why, and stop the
   * session (it would only record silence), keeping what it heard — stop() finalises the words so far.
   */
  async function micFailed(message: string): Promise<void> {
    await stop();
    // Set after stop(): the microphone is the reason the user needs, not a stop that came second.
    error.value = { code: 'unsupported', message: `${message.replace(/[.\s]*$/, '.')} The session was stopped; the transcript so far is kept.` };
  }

  async function releaseMedia(): Promise<void> {
    offLevels?.();
    offLevels = null;
    levelDbfs.value = MIN_DBFS;
    micStream = -1;
    const c = capture;
    capture = null;
    await c?.dispose();
  }

  /** Starts a session: the query checked in main (spec ranges), the source the user picked. */
  async function start(query: LiveSttQuery, source: LiveTranscriptionInput['source'], connectionId?: string): Promise<void> {
    if (starting.value) return;
    starting.value = true;
    error.value = null;
    try {
      if (sessionId.value) await forget();
      const input: LiveTranscriptionInput = { query, source, ...(connectionId ? { connectionId } : {}) };
      const view = await live.start(LIVE_TRANSCRIPTION_KIND, input, onChunk);
      sessionId.value = view.id;
      remember(view.id);
    } catch (err) {
      error.value = toWorkbenchError(err);
    } finally {
      starting.value = false;
    }
  }

  /** After a reload: shows the session this tab had, if main still runs it (or it just ended). */
  function restore(): void {
    const id = remembered();
    if (!id || sessionId.value === id) return;
    sessionId.value = id;
    const view = live.attach(id, onChunk);
    // Already attached by the live-sessions store's own restore: start from what it holds.
    if (view.snapshot && !state.value) {
      const snap = structuredClone(view.snapshot as LiveTranscriptionSnapshot);
      for (const event of view.events) applyTranscriptionEvent(snap, event as LiveTranscriptionEvent);
      state.value = snap;
      void wireMedia();
    }
  }

  async function control(message: { type: 'finalize' } | { type: 'mute'; muted: boolean }): Promise<void> {
    if (!sessionId.value) return;
    try {
      await live.send(sessionId.value, message);
    } catch (err) {
      error.value = toWorkbenchError(err);
    }
  }

  /** Ends the session for every window; the final words arrive before it answers. */
  async function stop(): Promise<void> {
    const id = sessionId.value;
    if (!id) return;
    // The page's microphone stops first: what it captured so far still reaches the service.
    const c = capture;
    capture = null;
    await c?.dispose();
    try {
      await live.stop(id);
    } catch (err) {
      error.value = toWorkbenchError(err);
    }
  }

  /** Leaves the panel empty (the session, if still running, goes on in main). */
  async function forget(): Promise<void> {
    const id = sessionId.value;
    sessionId.value = null;
    state.value = null;
    remember(null);
    await releaseMedia();
    if (id) await live.detach(id);
  }

  /** A WAV file to play as the microphone (the `file` source, for testing without a device); null when none was chosen. */
  async function pickFile(): Promise<{ ref: string; name: string } | null> {
    error.value = null;
    try {
      const [picked] = await chooseFiles(useWorkbench(), { title: 'Choose a WAV file to play as the microphone', accept: 'audio/wav,.wav' });
      return picked ? { ref: picked.ref, name: picked.name } : null;
    } catch (err) {
      error.value = toWorkbenchError(err);
      return null;
    }
  }

  return { sessionId, state, levelDbfs, error, starting, start, restore, stop, forget, pickFile, finalize: () => control({ type: 'finalize' }), mute: (muted: boolean) => control({ type: 'mute', muted }) };
});
