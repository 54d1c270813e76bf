/**
 * One speech run of the playground (the Speech store has one, and a second in compare mode): its
 * phase, result or error, and while it streams what the page has of it so far — the time to first
 * audio, the chunks, the characters with their times (per-chunk `audio_timestamps`), the waveform
 * of the audio received (live-playable codecs) and how much of it the page's player has played, so
 * the view lights the characters as they are heard before the audio is kept.
 */
import { computed, ref, shallowRef, watch } from 'vue';
import type { WorkbenchError } from '@shared/contract/errors';
import type { SpeechFieldsInput, SpeechRunChunk, SpeechRunResult } from '@shared/families/speech/contract';
import type { AudioTimestamps } from '@shared/wire/tts';
import type { AudioResult } from '@shared/audio/errors';
import { useWorkbench } from '../../../api';
import { useRunHandle } from '../../../composables/use-run-handle';
import { LiveTimestamps } from '../lib/spoken';
import { chunkPeaks } from '../lib/live-peaks';
import { livePlayable, StreamPcm } from '../lib/stream-pcm';
import type { SpeechMode } from '../lib/speech-draft';

export type SpeechPhase = 'idle' | 'sending' | 'streaming' | 'done' | 'error' | 'cancelled';

/** The page's live player (tests put a recording one in). `stats` (PagePlayback's) says how much has been heard. */
export interface LivePlayer {
  enqueue(pcm: Int16Array): void;
  end(): void;
  dispose(): Promise<void>;
  stats?(): Promise<{ playedMs: number } | null>;
}
export type OpenLivePlayer = (sourceRate: number) => Promise<AudioResult<LivePlayer>>;

/** How often the played position is read from the player while it plays (the lit characters follow it). */
export const PLAYED_POLL_MS = 100;
/** A live player whose clock stands still this long after the stream ended is not followed any more. */
export const PLAYED_STALL_MS = 2_000;

export function createSpeechRun() {
  const phase = ref<SpeechPhase>('idle');
  const runId = ref<string | null>(null);
  /** The voice this run speaks with (compare mode labels its two results by it). */
  const voice = ref<string | null>(null);
  const mode = ref<SpeechMode>('rest');
  const result = shallowRef<SpeechRunResult | null>(null);
  const error = shallowRef<WorkbenchError | null>(null);
  const firstAudioMs = ref<number | null>(null);
  const chunks = ref(0);
  /** Timestamps as they stream in (the view lights characters before the run ends). */
  const liveTimestamps = shallowRef<AudioTimestamps | null>(null);
  /** The waveform of the audio received so far: one peak (0–1) per LIVE_PEAK_SECONDS. */
  const livePeaks = shallowRef<number[]>([]);
  /** Seconds of audio received so far. */
  const liveSeconds = ref(0);
  /** Seconds the page's player has played of it (null: the player cannot say, or nothing plays live). */
  const playedSeconds = ref<number | null>(null);
  /** Native output: the device playing it (its name once open). */
  const device = ref<string | null>(null);
  /** The live player is still sounding (the stream may have ended before its audio did). */
  const livePlaying = ref(false);
  const playNote = ref<string | null>(null);
  /** When the run was sent and when it ended (Date.now(); null while it lasts): the view's elapsed clock. */
  const startedAt = ref<number | null>(null);
  const endedAt = ref<number | null>(null);
  const handle = useRunHandle<SpeechRunResult, SpeechPhase>({ phase, result, runId, error });
  let player: LivePlayer | null = null;
  let poll: ReturnType<typeof setInterval> | null = null;

  const busy = computed(() => phase.value === 'sending' || phase.value === 'streaming');

  function stopPolling(): void {
    if (poll) clearInterval(poll);
    poll = null;
  }

  async function stopPlayer(): Promise<void> {
    stopPolling();
    livePlaying.value = false;
    const p = player;
    player = null;
    await p?.dispose();
  }

  /**
   * Follows the player's clock until it has played everything received and the stream is over —
   * or, the stream over, until the clock has not moved for PLAYED_STALL_MS (an output that does
   * not render: the kept audio on the waveform player is then the way to hear it).
   */
  function followPlayer(p: LivePlayer): void {
    if (!p.stats || poll) return;
    livePlaying.value = true;
    let lastMs = -1;
    let stalledSince = Date.now();
    poll = setInterval(() => {
      void p.stats!().then((s) => {
        if (player !== p || !s) return;
        playedSeconds.value = Math.min(s.playedMs / 1000, liveSeconds.value);
        if (s.playedMs !== lastMs) {
          lastMs = s.playedMs;
          stalledSince = Date.now();
        }
        const heard = s.playedMs / 1000 >= liveSeconds.value - 0.005;
        if (!busy.value && (heard || Date.now() - stalledSince >= PLAYED_STALL_MS)) {
          stopPolling();
          livePlaying.value = false;
        }
      });
    }, PLAYED_POLL_MS);
  }

  function reset(input: SpeechFieldsInput, how: SpeechMode): void {
    phase.value = how === 'stream' ? 'streaming' : 'sending';
    mode.value = how;
    voice.value = input.voice ?? null;
    error.value = null;
    result.value = null;
    runId.value = null;
    firstAudioMs.value = null;
    chunks.value = 0;
    liveTimestamps.value = null;
    livePeaks.value = [];
    liveSeconds.value = 0;
    playedSeconds.value = null;
    startedAt.value = Date.now();
    endedAt.value = null;
    device.value = null;
  }

  /** Sends `input` over REST or the WebSocket; streamed audio plays from the first chunk through `openLivePlayer`. */
  async function run(input: SpeechFieldsInput, how: SpeechMode, openLivePlayer: OpenLivePlayer): Promise<SpeechRunResult | null> {
    await stopPlayer();
    reset(input, how);
    const codec = input.codec ?? 'mp3';
    // Native output: the media process plays it; the page's clock follows the ms heard there.
    const native = input.output !== undefined;
    if (native) playedSeconds.value = 0;
    const live = !native && how === 'stream' && livePlayable(codec);
    playNote.value = !native && how === 'stream' && !live ? `${codec.toUpperCase()} cannot be played chunk by chunk in the page: it plays when the speech is complete (choose PCM, µ-law or A-law to hear it from the first chunk).` : null;
    const pcm = new StreamPcm(codec);
    const rate = input.sampleRate ?? 24_000;
    const stamps = new LiveTimestamps();
    let opening: Promise<void> | null = null;
    const pendingSamples: Int16Array[] = [];
    const onChunk = (c: SpeechRunChunk): void => {
      if (c.type === 'started') runId.value = c.runId;
      else if (c.type === 'first-audio') firstAudioMs.value = c.ms;
      else if (c.type === 'device') device.value = c.name;
      else if (c.type === 'played') playedSeconds.value = c.ms / 1000;
      else if (c.type === 'audio') {
        chunks.value++;
        const samples = live ? pcm.push(c.audio) : null;
        const seconds = samples ? samples.length / rate : (c.duration ?? 0);
        liveTimestamps.value = stamps.add(c.timestamps, seconds);
        liveSeconds.value += seconds;
        if (!samples) return;
        livePeaks.value = [...livePeaks.value, ...chunkPeaks(samples, rate)];
        if (player) player.enqueue(samples);
        else {
          pendingSamples.push(samples);
          opening ??= openLivePlayer(rate).then((opened) => {
            if (!opened.ok) {
              playNote.value = opened.error.message;
              return;
            }
            player = opened.value;
            playedSeconds.value = opened.value.stats ? 0 : null;
            for (const s of pendingSamples.splice(0)) player.enqueue(s);
            followPlayer(player);
          });
        }
      }
    };
    const api = useWorkbench().speech;
    const h = how === 'stream' ? api.stream(input, onChunk) : api.synthesize(input, onChunk);
    return handle.settle(h, {
      beforeDone: async () => {
        await opening;
        player?.end();
        if (!poll) livePlaying.value = false;
        endedAt.value = Date.now();
      },
      beforeFailed: async () => {
        await stopPlayer();
        endedAt.value = Date.now();
      },
    });
  }

  async function stop(): Promise<void> {
    await handle.cancel();
    await stopPlayer();
  }

  /** Resolves once the live audio has been heard to its end (at once when nothing plays live; a stop ends it too). */
  function heard(): Promise<void> {
    if (!livePlaying.value) return Promise.resolve();
    return new Promise((resolve) => {
      const unwatch = watch(livePlaying, (playing) => {
        if (playing) return;
        unwatch();
        resolve();
      });
    });
  }

  return { device, phase, runId, voice, mode, result, error, firstAudioMs, chunks, liveTimestamps, livePeaks, liveSeconds, playedSeconds, livePlaying, playNote, startedAt, endedAt, busy, run, stop, stopPlayer, heard };
}

export type SpeechRun = ReturnType<typeof createSpeechRun>;

/** A run as a component reads it from the store (its refs unwrapped). */
export interface SpeechRunState {
  phase: SpeechPhase;
  runId: string | null;
  voice: string | null;
  mode: SpeechMode;
  result: SpeechRunResult | null;
  error: WorkbenchError | null;
  firstAudioMs: number | null;
  chunks: number;
  liveTimestamps: AudioTimestamps | null;
  livePeaks: number[];
  liveSeconds: number;
  playedSeconds: number | null;
  /** Native output: the device playing it (its name once open). */
  device: string | null;
  livePlaying: boolean;
  playNote: string | null;
  startedAt: number | null;
  endedAt: number | null;
}
