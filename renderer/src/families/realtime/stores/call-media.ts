/**
 * A realtime call's media in the page: the microphone levels main sends (kept for the latency
 * timeline), the page's microphone when the call takes it from the page (20 ms PCM16 frames
 * straight to the media process on the snapshot's `mic` stream, never through main), and the
 * model's voice on the page's speakers with its heard position reported back for the truncate.
 * Wired again whenever the snapshot's streams change; released when the call ends or drops.
 */
import { markRaw, ref, shallowRef, type Ref, type ShallowRef } from 'vue';
import type { WorkbenchError } from '@shared/contract/errors';
import { MIN_DBFS } from '@shared/audio/levels';
import { FrameKind } from '@shared/media-frames/frame';
import type { RealtimeCallControlDraft, RealtimeCallSnapshot } from '@shared/realtime-call';
import type { PageCapture } from '../../../audio/page-capture';
import { startPageMicrophone } from '../../../audio/page-microphone';
import type { MediaChannel } from '../../../bridge/media';
import { useAudioDevicesStore } from '../../../stores/audio-devices';
import type { LevelSample } from '../lib/latency-timeline';
import { isActive } from '../lib/call-state';
import { PageCallOutput } from './page-call-output';

/** Microphone level samples kept for the latency timeline (a minute at 20 ms). */
export const LEVELS_KEPT = 3_000;

export interface CallMediaDeps {
  state: ShallowRef<RealtimeCallSnapshot | null>;
  startedAt: Ref<number | null>;
  error: ShallowRef<WorkbenchError | null>;
  control(message: RealtimeCallControlDraft): Promise<boolean>;
  hangUp(): Promise<void>;
}

export function useCallMedia(deps: CallMediaDeps) {
  const levelDbfs = ref(MIN_DBFS);
  const levels = shallowRef<LevelSample[]>(markRaw([]));
  let capture: PageCapture | null = null;
  let offLevels: (() => void) | null = null;
  let output: PageCallOutput | null = null;
  let offPlayback: (() => void) | null = null;
  let playbackStream = -1;
  let micStream = -1;

  async function mediaChannel(): Promise<MediaChannel> {
    return (await import('../../../bridge/media')).mediaChannel();
  }

  function addLevel(dbfs: number): void {
    levelDbfs.value = dbfs;
    if (deps.startedAt.value === null) return;
    const list = levels.value;
    list.push({ t: Date.now() - deps.startedAt.value, dbfs });
    if (list.length > LEVELS_KEPT * 2) levels.value = markRaw(list.slice(-LEVELS_KEPT));
  }

  /** Levels in, and the page's microphone out when the call takes it from the page. */
  async function wireMedia(): Promise<void> {
    const snap = deps.state.value;
    if (!snap || !isActive(snap) || snap.status === 'dropped') return releaseMedia();
    const pagePlays = snap.output.kind === 'page' && snap.streams.playback >= 0;
    if (snap.streams.levels < 0 && !pagePlays && (snap.microphone.kind !== 'page' || snap.streams.mic < 0)) return;
    const channel = await mediaChannel();
    if (pagePlays && playbackStream !== snap.streams.playback) await startOutput(channel, snap);
    if (!offLevels && snap.streams.levels >= 0) {
      offLevels = channel.onFrame(snap.streams.levels, (frame) => {
        if (frame.payload.byteLength >= 4) addLevel(new DataView(frame.payload.buffer, frame.payload.byteOffset, 4).getFloat32(0));
      });
    }
    if (snap.microphone.kind !== 'page' || snap.streams.mic < 0 || capture || micStream === snap.streams.mic) return;
    micStream = snap.streams.mic;
    const started = await startPageMicrophone({
      sampleRate: snap.formats.input.rate,
      deviceId: snap.microphone.device ?? null,
      send: (pcm) => channel.send(micStream, FrameKind.Data, pcm),
      // The page's own levels when main sends none (the meter still moves).
      onLevel: snap.streams.levels < 0 ? (level) => addLevel(level.rmsDbfs) : undefined,
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

  /** The model's voice on the page's speakers, its heard position reported back for the truncate. */
  async function startOutput(channel: MediaChannel, snap: RealtimeCallSnapshot): Promise<void> {
    playbackStream = snap.streams.playback;
    const device = snap.output.kind === 'page' ? (snap.output.device ?? null) : null;
    const opened = await PageCallOutput.open(snap.formats.output.rate, device, (itemId, playedMs, flushed) => void deps.control({ type: 'played', itemId, playedMs, flushed }));
    if (!opened.ok) {
      deps.error.value = { code: 'unsupported', message: `${opened.error.message.replace(/[.\s]*$/, '.')} The call goes on without sound here.` };
      return;
    }
    output = opened.value;
    offPlayback = channel.onFrame(playbackStream, (frame) => output?.onFrame(frame));
  }

  /** The page's microphone was refused or went away: said, and the call hung up (its recording kept). */
  async function micFailed(message: string): Promise<void> {
    await deps.hangUp();
    deps.error.value = { code: 'unsupported', message: `${message.replace(/[.\s]*$/, '.')} The call was ended; its recording and log so far are kept.` };
  }

  async function releaseMedia(): Promise<void> {
    offLevels?.();
    offLevels = null;
    levelDbfs.value = MIN_DBFS;
    micStream = -1;
    offPlayback?.();
    offPlayback = null;
    playbackStream = -1;
    const o = output;
    output = null;
    const c = capture;
    capture = null;
    await Promise.all([c?.dispose(), o?.dispose()]);
  }

  /** Stops the page's microphone at once (hanging up: nothing more is sent). */
  async function stopMicrophone(): Promise<void> {
    const c = capture;
    capture = null;
    await c?.dispose();
  }

  function clearLevels(): void {
    levels.value = markRaw([]);
  }

  return { levelDbfs, levels, wire: wireMedia, release: releaseMedia, stopMicrophone, clearLevels };
}
