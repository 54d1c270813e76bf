/**
 * The Speech playground: the form (text, language, voice, output format, speed, REST or
 * streaming), kept as a draft so a reload or a restart loses none of it; the voices to choose
 * from; and the run (stores/speech-run.ts) — or, in compare mode, two runs of the same text with
 * two voices, one after the other (they would share the service, and the page's speaker, if run
 * together: each time to first audio is measured alone and each is heard alone). Streaming plays
 * each chunk as it arrives through the page's player (PagePlayback, PCM16) from the first one;
 * either way the finished run's audio is a gallery item the view plays by URL with its timestamps.
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import { SpeechFieldsSchema, type SpeechFieldsInput, type SpeechVoice } from '@shared/families/speech/contract';
import { charactersLeft } from '@shared/families/speech/limits';
import { useWorkbench } from '../../../api';
import { toWorkbenchError } from '../../../lib/errors';
import { PagePlayback } from '../../../audio/page-playback';
import { useDraft } from '../../../composables/use-draft';
import { previewSample } from '../lib/preview';
import { defaultSpeechForm, speechFormFromSaved, type SpeechForm, type SpeechMode } from '../lib/speech-draft';
import { createSpeechRun, type LivePlayer, type OpenLivePlayer, type SpeechPhase } from './speech-run';

export type { SpeechMode, SpeechPhase, LivePlayer, OpenLivePlayer };

export const useSpeechStore = defineStore('speech', () => {
  const initial = defaultSpeechForm();
  const text = ref(initial.text);
  const language = ref<SpeechForm['language']>(initial.language);
  const voice = ref<string>(initial.voice);
  const codec = ref<SpeechForm['codec']>(initial.codec);
  const sampleRate = ref<number>(initial.sampleRate);
  const bitRate = ref<number | null>(initial.bitRate);
  const speed = ref<number>(initial.speed);
  const mode = ref<SpeechMode>(initial.mode);
  const compare = ref(initial.compare);
  const voiceB = ref(initial.voiceB);

  function form(): SpeechForm {
    return { text: text.value, language: language.value, voice: voice.value, codec: codec.value, sampleRate: sampleRate.value, bitRate: bitRate.value, speed: speed.value, mode: mode.value, compare: compare.value, voiceB: voiceB.value };
  }
  function fill(f: SpeechForm): void {
    text.value = f.text;
    language.value = f.language;
    voice.value = f.voice;
    codec.value = f.codec;
    sampleRate.value = f.sampleRate;
    bitRate.value = f.bitRate;
    speed.value = f.speed;
    mode.value = f.mode;
    compare.value = f.compare;
    voiceB.value = f.voiceB;
  }
  // The form is kept as typed: a reload or a restart brings it back; New empties it.
  const draft = useDraft('speech', form, (saved) => fill(speechFormFromSaved(saved)));

  const voices = shallowRef<SpeechVoice[]>([]);
  const voicesNote = ref<string | null>(null);
  /** The run (compare mode: the first voice's). */
  const a = createSpeechRun();
  /** Compare mode's second voice's run. */
  const b = createSpeechRun();
  /** Compare mode: the second run is waiting for the first to finish. */
  const sequencing = ref(false);
  let stopped = false;
  let openLivePlayer: OpenLivePlayer = async (rate) => PagePlayback.open({ sourceRate: rate });

  const left = computed(() => charactersLeft(text.value));
  const busy = computed(() => a.busy.value || b.busy.value || sequencing.value);

  function fields(withVoice = voice.value): SpeechFieldsInput {
    return {
      text: text.value,
      language: language.value,
      voice: withVoice,
      codec: codec.value,
      sampleRate: sampleRate.value,
      ...(codec.value === 'mp3' && bitRate.value !== null ? { bitRate: bitRate.value } : {}),
      speed: speed.value,
      withTimestamps: true,
    };
  }

  /** What is wrong with the form, for a person (null: it can be sent). */
  const problem = computed<string | null>(() => {
    const parsed = SpeechFieldsSchema.safeParse(fields());
    if (!parsed.success) return parsed.error.issues[0]?.message ?? 'the form is not complete';
    if (compare.value && !voiceB.value.trim()) return 'choose the second voice to compare';
    return null;
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

  /** Speaks the text; in compare mode with the first voice, then the second (each a run in History). */
  async function send(): Promise<void> {
    if (busy.value || problem.value) return;
    stopped = false;
    const how = mode.value;
    const second = compare.value ? fields(voiceB.value) : null;
    await b.stopPlayer();
    if (!second) b.phase.value = 'idle';
    sequencing.value = second !== null;
    try {
      await a.run(fields(), how, openLivePlayer);
      // The first voice is heard to its end before the second is asked for (Stop cuts it short).
      if (second && !stopped) await a.heard();
      if (second && !stopped) {
        await a.stopPlayer();
        await b.run(second, how, openLivePlayer);
      }
    } finally {
      sequencing.value = false;
    }
  }

  async function stop(): Promise<void> {
    stopped = true;
    await Promise.all([a.stop(), b.stop()]);
  }

  /** A voice preview being made (the voice's id), and why the last one failed. */
  const previewing = ref<string | null>(null);
  const previewError = ref<string | null>(null);

  /**
   * A short sample of the chosen voice (the voices family's `voices.preview`: speech kept as a
   * blob) as a media URL to play; null when it failed (previewError says why). Not a run of the
   * playground: the result and History entry of the last Speak stay as they are.
   */
  async function previewVoice(which: string = voice.value): Promise<string | null> {
    previewing.value = which;
    previewError.value = null;
    try {
      const api = useWorkbench();
      const blob = await api.voices.preview({ voiceId: which, text: previewSample(text.value), language: language.value });
      return (await api.media.url({ hash: blob.hash })).url;
    } catch (err) {
      previewError.value = `No preview of "${which}": ${toWorkbenchError(err).message}`;
      return null;
    } finally {
      previewing.value = null;
    }
  }

  return {
    text, language, voice, codec, sampleRate, bitRate, speed, mode, compare, voiceB, draft,
    voices, voicesNote, left, busy, problem, fields, loadVoices, send, stop, setPlayerFactory,
    /** The first (or only) run, and compare mode's second. */
    a, b,
    // The single run's state as before (the view and its tests read these).
    phase: a.phase, runId: a.runId, result: a.result, error: a.error, firstAudioMs: a.firstAudioMs, chunks: a.chunks, liveTimestamps: a.liveTimestamps, playNote: a.playNote,
    previewing, previewError, previewVoice,
  };
});
