/**
 * The Speech playground: the form (text, language, voice, output format, speed, REST or
 * streaming), the voices to choose from, and one run at a time. Streaming plays each chunk as it
 * arrives through the page's player (PagePlayback, PCM16) from the first one, and shows the time
 * to first audio; either way the finished run's audio is a gallery item the view plays by URL with
 * its timestamps.
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type { StreamHandle } from '@shared/contract/api';
import type { WorkbenchError } from '@shared/contract/errors';
import { SpeechFieldsSchema, type SpeechFieldsInput, type SpeechRunChunk, type SpeechRunResult, type SpeechVoice } from '@shared/families/speech/contract';
import { charactersLeft } from '@shared/families/speech/limits';
import { TTS_LIMITS, type AudioTimestamps, type TtsCodec } from '@shared/wire/tts';
import type { AudioResult } from '@shared/audio/errors';
import type { AudioDeviceChoice } from '@shared/contract/audio';
import { useWorkbench } from '../../../api';
import { toWorkbenchError } from '../../../lib/errors';
import { PagePlayback } from '../../../audio/page-playback';
import { appendTimestamps } from '../lib/spoken';
import { livePlayable, StreamPcm } from '../lib/stream-pcm';
import { previewSample } from '../lib/preview';

export type SpeechMode = 'rest' | 'stream';
export type SpeechPhase = 'idle' | 'sending' | 'streaming' | 'done' | 'error' | 'cancelled';

/** The page's live player (tests put a recording one in). */
export interface LivePlayer {
  enqueue(pcm: Int16Array): void;
  end(): void;
  dispose(): Promise<void>;
}
export type OpenLivePlayer = (sourceRate: number) => Promise<AudioResult<LivePlayer>>;

export const useSpeechStore = defineStore('speech', () => {
  const text = ref('');
  const language = ref<NonNullable<SpeechFieldsInput['language']>>('en');
  const voice = ref<string>(TTS_LIMITS.voiceDefault);
  const codec = ref<TtsCodec>('mp3');
  const sampleRate = ref<number>(TTS_LIMITS.sampleRateDefault);
  const bitRate = ref<number | null>(null);
  const speed = ref<number>(TTS_LIMITS.speedDefault);
  const mode = ref<SpeechMode>('rest');
  /** Where the speech plays: the page, or a native output device (the media process plays it; Stop flushes it). */
  const output = ref<AudioDeviceChoice>({ kind: 'page' });
  /** Native output while it plays: the device's name and the ms heard. */
  const device = ref<{ name: string | null; playedMs: number } | null>(null);

  const voices = shallowRef<SpeechVoice[]>([]);
  const voicesNote = ref<string | null>(null);
  const phase = ref<SpeechPhase>('idle');
  const runId = ref<string | null>(null);
  const result = shallowRef<SpeechRunResult | null>(null);
  const error = shallowRef<WorkbenchError | null>(null);
  const firstAudioMs = ref<number | null>(null);
  const chunks = ref(0);
  /** Timestamps as they stream in (the view lights characters before the run ends). */
  const liveTimestamps = shallowRef<AudioTimestamps | null>(null);
  const playNote = ref<string | null>(null);
  let handle: StreamHandle<SpeechRunResult> | null = null;
  let player: LivePlayer | null = null;
  let openLivePlayer: OpenLivePlayer = async (rate) => PagePlayback.open({ sourceRate: rate });

  const left = computed(() => charactersLeft(text.value));
  const busy = computed(() => phase.value === 'sending' || phase.value === 'streaming');

  function fields(): SpeechFieldsInput {
    return {
      text: text.value,
      language: language.value,
      voice: voice.value,
      codec: codec.value,
      sampleRate: sampleRate.value,
      ...(codec.value === 'mp3' && bitRate.value !== null ? { bitRate: bitRate.value } : {}),
      speed: speed.value,
      withTimestamps: true,
      ...(output.value.kind === 'native' ? { output: { device: output.value.device ?? null } } : {}),
    };
  }

  /** What is wrong with the form, for a person (null: it can be sent). */
  const problem = computed<string | null>(() => {
    const parsed = SpeechFieldsSchema.safeParse(fields());
    return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'the form is not complete');
  });

  async function loadVoices(): Promise<void> {
    try {
      const v = await useWorkbench().speech.voices({});
      voices.value = v.voices;
      voicesNote.value = v.customError;
    } catch (err) {
      voicesNote.value = `The voices could not be listed: ${toWorkbenchError(err).message}`;
    }
  }

  function setPlayerFactory(open: OpenLivePlayer): void {
    openLivePlayer = open;
  }

  async function stopPlayer(): Promise<void> {
    const p = player;
    player = null;
    await p?.dispose();
  }

  async function send(): Promise<SpeechRunResult | null> {
    if (busy.value || problem.value) return null;
    await stopPlayer();
    phase.value = mode.value === 'stream' ? 'streaming' : 'sending';
    error.value = null;
    result.value = null;
    runId.value = null;
    firstAudioMs.value = null;
    chunks.value = 0;
    liveTimestamps.value = null;
    const native = output.value.kind === 'native';
    device.value = native ? { name: null, playedMs: 0 } : null;
    const live = !native && mode.value === 'stream' && livePlayable(codec.value);
    playNote.value = !native && mode.value === 'stream' && !live ? `${codec.value.toUpperCase()} cannot be played chunk by chunk in the page: it plays when the speech is complete (choose PCM, µ-law or A-law to hear it from the first chunk).` : null;
    const pcm = new StreamPcm(codec.value);
    const rate = sampleRate.value;
    let opening: Promise<void> | null = null;
    const pendingSamples: Int16Array[] = [];
    const onChunk = (c: SpeechRunChunk): void => {
      if (c.type === 'started') runId.value = c.runId;
      else if (c.type === 'first-audio') firstAudioMs.value = c.ms;
      else if (c.type === 'device' && device.value) device.value = { ...device.value, name: c.name };
      else if (c.type === 'played' && device.value) device.value = { ...device.value, playedMs: c.ms };
      else if (c.type === 'audio') {
        chunks.value++;
        liveTimestamps.value = appendTimestamps(liveTimestamps.value, c.timestamps);
        if (!live) return;
        const samples = pcm.push(c.audio);
        if (player) player.enqueue(samples);
        else {
          pendingSamples.push(samples);
          opening ??= openLivePlayer(rate).then((opened) => {
            if (!opened.ok) {
              playNote.value = opened.error.message;
              return;
            }
            player = opened.value;
            for (const s of pendingSamples.splice(0)) player.enqueue(s);
          });
        }
      }
    };
    const api = useWorkbench().speech;
    const input = fields();
    const h = mode.value === 'stream' ? api.stream(input, onChunk) : api.synthesize(input, onChunk);
    handle = h;
    try {
      const r = await h.result;
      if (handle !== h) return null;
      await opening;
      player?.end();
      result.value = r;
      runId.value = r.runId;
      phase.value = 'done';
      return r;
    } catch (err) {
      if (handle !== h) return null;
      const e = toWorkbenchError(err);
      await stopPlayer();
      if (e.code === 'cancelled') phase.value = 'cancelled';
      else {
        error.value = e;
        phase.value = 'error';
      }
      return null;
    } finally {
      if (handle === h) handle = null;
    }
  }

  async function stop(): Promise<void> {
    await handle?.cancel();
    await stopPlayer();
  }

  /** A voice preview being made (the voice's id), and why the last one failed. */
  const previewing = ref<string | null>(null);
  const previewError = ref<string | null>(null);

  /**
   * A short sample of the chosen voice (the voices family's `voices.preview`: speech kept as a
   * blob) as a media URL to play; null when it failed (previewError says why). Not a run of the
   * playground: the result and History entry of the last Speak stay as they are.
   */
  async function previewVoice(): Promise<string | null> {
    const voiceId = voice.value;
    previewing.value = voiceId;
    previewError.value = null;
    try {
      const api = useWorkbench();
      const blob = await api.voices.preview({ voiceId, text: previewSample(text.value), language: language.value });
      return (await api.media.url({ hash: blob.hash })).url;
    } catch (err) {
      previewError.value = `No preview of "${voiceId}": ${toWorkbenchError(err).message}`;
      return null;
    } finally {
      previewing.value = null;
    }
  }

  return { text, language, voice, codec, sampleRate, bitRate, speed, mode, output, device, voices, voicesNote, phase, runId, result, error, firstAudioMs, chunks, liveTimestamps, playNote, left, busy, problem, fields, loadVoices, send, stop, setPlayerFactory, previewing, previewError, previewVoice };
});
