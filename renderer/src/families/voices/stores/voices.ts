/**
 * The Voices view's state: the built-in voices, one page of the team's custom voices (pages by
 * token, the tokens of earlier pages kept for Previous), and the actions on a voice — clone from
 * a file reference (a picked or dropped file, or a recording staged as a File), edit, delete, its
 * reference clip and a spoken preview as media URLs (audio main keeps as blobs).
 */
import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import type { WorkbenchError } from '@shared/contract/errors';
import type { FileRef } from '@shared/contract/user-files';
import type { BuiltInVoiceInfo, CustomVoice, VoiceChange, VoiceMetadataInput, VoicePatchInput } from '@shared/families/voices/contract';
import { useWorkbench } from '../../../api';
import { stageFileWith } from '../../../bridge/user-files';
import { toWorkbenchError } from '../../../lib/errors';

/** How a File made in the page becomes a reference (tests pass their own). */
export type StageFile = (file: File, onProgress: (loaded: number) => void) => Promise<FileRef>;

export const useVoicesStore = defineStore('voices', () => {
  const builtIn = shallowRef<BuiltInVoiceInfo[]>([]);
  const custom = shallowRef<CustomVoice[]>([]);
  const limit = ref(20);
  const pageTokens = shallowRef<(string | undefined)[]>([]);
  const currentToken = ref<string | undefined>(undefined);
  const nextToken = ref<string | null>(null);
  const loading = ref(false);
  const error = ref<WorkbenchError | null>(null);
  /** Media URLs already asked for, by voice id: the reference clip and the newest preview. */
  const clipUrls = shallowRef<Record<string, string>>({});
  const previewUrls = shallowRef<Record<string, string>>({});
  let unsubscribe: (() => void) | null = null;

  async function loadPage(token: string | undefined): Promise<void> {
    loading.value = true;
    error.value = null;
    try {
      const api = useWorkbench();
      const [voices, page] = await Promise.all([builtIn.value.length ? Promise.resolve(builtIn.value) : api.voices.builtIn(undefined), api.voices.list({ limit: limit.value, ...(token ? { paginationToken: token } : {}) })]);
      builtIn.value = voices;
      custom.value = page.voices;
      currentToken.value = token;
      nextToken.value = page.nextToken;
    } catch (err) {
      error.value = toWorkbenchError(err);
    } finally {
      loading.value = false;
    }
  }

  const load = () => {
    pageTokens.value = [];
    return loadPage(undefined);
  };

  async function next(): Promise<void> {
    if (!nextToken.value) return;
    pageTokens.value = [...pageTokens.value, currentToken.value];
    await loadPage(nextToken.value);
  }

  async function previous(): Promise<void> {
    if (pageTokens.value.length === 0) return;
    const tokens = [...pageTokens.value];
    const token = tokens.pop();
    pageTokens.value = tokens;
    await loadPage(token);
  }

  /** Clones a voice from a file the user gave; the list is reloaded on its current page. */
  async function create(ref: string, metadata: VoiceMetadataInput): Promise<VoiceChange> {
    const change = await useWorkbench().voices.create({ ref, metadata });
    await loadPage(currentToken.value);
    return change;
  }

  /** Clones from a recording made in the page: its bytes are staged as a file (never base64 in JSON), then cloned. */
  async function createFromRecording(file: File, metadata: VoiceMetadataInput, stage: StageFile = stageFileWith(useWorkbench())): Promise<VoiceChange> {
    const staged = await stage(file, () => {});
    return create(staged.ref, metadata);
  }

  async function update(id: string, patch: VoicePatchInput): Promise<VoiceChange> {
    const change = await useWorkbench().voices.update({ id, patch });
    custom.value = custom.value.map((v) => (v.voice_id === id ? change.voice : v));
    return change;
  }

  async function remove(id: string): Promise<void> {
    await useWorkbench().voices.remove({ id });
    const { [id]: _clip, ...clips } = clipUrls.value;
    clipUrls.value = clips;
    await loadPage(currentToken.value);
    // The last voice of a later page went: show the page before.
    if (custom.value.length === 0 && pageTokens.value.length > 0) await previous();
  }

  /** The reference clip's URL (main fetches it once and keeps it). */
  async function clipUrl(id: string): Promise<string> {
    const known = clipUrls.value[id];
    if (known) return known;
    const api = useWorkbench();
    const blob = await api.voices.referenceAudio({ id });
    const { url } = await api.media.url({ hash: blob.hash });
    clipUrls.value = { ...clipUrls.value, [id]: url };
    return url;
  }

  /** Speech in voice `voiceId`, as a URL to play. */
  async function previewUrl(voiceId: string, text: string, language: string): Promise<string> {
    const api = useWorkbench();
    const blob = await api.voices.preview({ voiceId, text, language });
    const { url } = await api.media.url({ hash: blob.hash });
    previewUrls.value = { ...previewUrls.value, [voiceId]: url };
    return url;
  }

  /** Another window (or this one) cloned, edited or deleted a voice: the page shown is read again. */
  function listen(): void {
    unsubscribe ??= useWorkbench().voices.onChanged(() => {
      if (!loading.value) void loadPage(currentToken.value);
    });
  }

  function stopListening(): void {
    unsubscribe?.();
    unsubscribe = null;
  }

  return { listen, stopListening, builtIn, custom, limit, pageTokens, nextToken, loading, error, clipUrls, previewUrls, load, next, previous, create, createFromRecording, update, remove, clipUrl, previewUrl };
});
