/**
 * The audio devices a picker offers: the native ones (listed by the media process, where
 * naudiodon runs: `audio.devices`, kept fresh by `audio.devicesChanged`) and the page's own
 * (navigator.mediaDevices, through renderer/src/audio). One store for every picker on the page.
 */
import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import type { NativeAudioDevices } from '@shared/contract/audio';
import type { WorkbenchError } from '@shared/contract/errors';
import { useWorkbench } from '../api';
import { toWorkbenchError } from '../lib/errors';
import { listPageDevices, watchPageDevices, type PageDeviceList } from '../audio/page-devices';

export const useAudioDevicesStore = defineStore('audio-devices', () => {
  const native = shallowRef<NativeAudioDevices | null>(null);
  const page = shallowRef<PageDeviceList | null>(null);
  const error = ref<WorkbenchError | null>(null);
  const loading = ref(false);
  let following = false;

  /** Lists both kinds (again) and, the first time, starts following hot-plug. */
  async function load(): Promise<void> {
    const media = typeof navigator !== 'undefined' ? navigator.mediaDevices : undefined;
    loading.value = true;
    try {
      const api = useWorkbench();
      if (!following) {
        following = true;
        api.audio.onDevicesChanged((next) => (native.value = next));
        if (media?.enumerateDevices) watchPageDevices(media, (change) => (page.value = change.list));
      }
      const [nativeList, pageList] = await Promise.all([
        api.audio.devices(),
        media?.enumerateDevices ? listPageDevices(media).catch(() => null) : Promise.resolve(null),
      ]);
      native.value = nativeList;
      page.value = pageList;
      error.value = null;
    } catch (err) {
      error.value = toWorkbenchError(err);
    } finally {
      loading.value = false;
    }
  }

  /**
   * The page was just allowed the microphone: its devices now have names (browsers fire no
   * devicechange for that), so list them again if they had none.
   */
  function pageAllowed(): void {
    if (page.value && !page.value.labelled) void load();
  }

  return { native, page, error, loading, load, pageAllowed };
});
