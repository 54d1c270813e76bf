/**
 * The page's audio devices (navigator.mediaDevices) in the same shape as the native list:
 * devices with the defaults marked, and hot-plug from the `devicechange` event as devices added
 * and removed. Labels are empty until the page has been granted the microphone once; the list
 * then says so instead of showing blank names.
 */

export interface PageAudioDevice {
  id: string;
  kind: 'input' | 'output';
  name: string;
}

export interface PageDeviceList {
  devices: PageAudioDevice[];
  defaultInputId: string | null;
  defaultOutputId: string | null;
  /** False until microphone access is granted: names are then placeholders. */
  labelled: boolean;
}

export interface PageDeviceChange {
  added: PageAudioDevice[];
  removed: PageAudioDevice[];
  list: PageDeviceList;
}

type MediaDevicesLike = Pick<MediaDevices, 'enumerateDevices' | 'addEventListener' | 'removeEventListener'>;

/** Chromium lists the default as a pseudo-device with id "default" (and "communications" on Windows) beside the real one. */
const PSEUDO_IDS = new Set(['default', 'communications']);

export async function listPageDevices(media: MediaDevicesLike): Promise<PageDeviceList> {
  const all = (await media.enumerateDevices()).filter((d) => d.kind === 'audioinput' || d.kind === 'audiooutput');
  const labelled = all.some((d) => d.label !== '');
  const devices: PageAudioDevice[] = [];
  let defaultInputId: string | null = null;
  let defaultOutputId: string | null = null;
  const counts = { input: 0, output: 0 };
  for (const d of all) {
    const kind = d.kind === 'audioinput' ? 'input' : 'output';
    if (PSEUDO_IDS.has(d.deviceId)) {
      // "Default - Built-in Microphone": the real device with the same group is the default.
      const real = all.find((o) => o.kind === d.kind && !PSEUDO_IDS.has(o.deviceId) && o.groupId === d.groupId && d.label.endsWith(o.label));
      if (d.deviceId === 'default') {
        if (kind === 'input') defaultInputId = real?.deviceId ?? 'default';
        else defaultOutputId = real?.deviceId ?? 'default';
      }
      continue;
    }
    counts[kind]++;
    devices.push({ id: d.deviceId, kind, name: d.label || `${kind === 'input' ? 'Microphone' : 'Output'} ${counts[kind]}` });
  }
  // Browsers that list no pseudo-device put the default first.
  defaultInputId ??= devices.find((d) => d.kind === 'input')?.id ?? null;
  defaultOutputId ??= devices.find((d) => d.kind === 'output')?.id ?? null;
  return { devices, defaultInputId, defaultOutputId, labelled };
}

/** Calls `onChange` when devices come or go; returns a dispose function. */
export function watchPageDevices(media: MediaDevicesLike, onChange: (change: PageDeviceChange) => void): () => void {
  let current: Promise<PageDeviceList> = listPageDevices(media);
  let disposed = false;
  const handler = () => {
    const before = current;
    current = listPageDevices(media);
    void Promise.all([before, current]).then(([a, b]) => {
      if (disposed) return;
      const had = new Set(a.devices.map((d) => `${d.kind}:${d.id}`));
      const has = new Set(b.devices.map((d) => `${d.kind}:${d.id}`));
      const added = b.devices.filter((d) => !had.has(`${d.kind}:${d.id}`));
      const removed = a.devices.filter((d) => !has.has(`${d.kind}:${d.id}`));
      if (added.length > 0 || removed.length > 0 || a.defaultInputId !== b.defaultInputId || a.defaultOutputId !== b.defaultOutputId) onChange({ added, removed, list: b });
    });
  };
  media.addEventListener('devicechange', handler);
  return () => {
    disposed = true;
    media.removeEventListener('devicechange', handler);
  };
}
