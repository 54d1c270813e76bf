/**
 * The native device list, answered by the media process (the only process that loads naudiodon).
 * The backend loads on the first question, so a machine without audio devices pays nothing until
 * someone asks; from then on a DeviceWatcher polls PortAudio's list and every change is pushed to
 * main (which tells every window: `audio.devicesChanged`), except while `busy()` says a session is
 * running: a poll with no native stream open blocks this loop 15–55 ms (a PortAudio
 * initialisation), which every running session would feel as a late frame (the capture bench's
 * outliers about once every 100 frames were these polls). While a native stream is open the list
 * could not change anyway (PortAudio keeps the one from when it opened), and a microphone pulled
 * out mid-session is Capture's stall watchdog's to report; the polls resume when the sessions
 * end. A question (`list()`) is answered with a fresh list, except while a session runs: then it gets
 * the last list read (the same list PortAudio would give), so asking mid-call never stalls a
 * stream. A library that cannot load, or a list that cannot be read, is an answer with `problem`
 * set, never a failure of the request.
 */
import type { NativeAudioDevices } from '../../shared/contract/audio';
import type { AudioResult } from '../../shared/audio/errors';
import { DeviceWatcher } from '../audio/devices';
import type { AudioBackend, DeviceList } from '../audio/types';

export type LoadAudioBackend = () => Promise<AudioResult<AudioBackend>>;

export function toNativeDevices(list: DeviceList, problem: string | null = null): NativeAudioDevices {
  return {
    devices: list.devices.map((d) => ({
      id: d.id,
      name: d.name,
      hostApi: d.hostApi,
      inputChannels: d.maxInputChannels,
      outputChannels: d.maxOutputChannels,
      defaultSampleRate: d.defaultSampleRate,
    })),
    defaultInputId: list.defaultInputId,
    defaultOutputId: list.defaultOutputId,
    problem,
  };
}

const NONE: DeviceList = { devices: [], defaultInputId: null, defaultOutputId: null };

export class MediaAudioDevices {
  private backend: Promise<AudioResult<AudioBackend>> | null = null;
  private watcher: DeviceWatcher | null = null;
  private disposed = false;

  constructor(
    private readonly load: LoadAudioBackend,
    private readonly onChange: (devices: NativeAudioDevices) => void,
    private readonly pollMs = 2000,
    private readonly busy: () => boolean = () => false,
  ) {}

  /** The backend every native session of this process shares (loaded once). */
  audioBackend(): Promise<AudioResult<AudioBackend>> {
    this.backend ??= this.load();
    return this.backend;
  }

  async list(): Promise<NativeAudioDevices> {
    const backend = await this.audioBackend();
    if (!backend.ok) return toNativeDevices(NONE, `Native audio devices are unavailable: ${backend.error.message}`);
    const known = this.watcher?.list;
    if (known && this.busy()) return toNativeDevices(known);
    const listed = backend.value.listDevices();
    if (!this.watcher && !this.disposed) {
      this.watcher = new DeviceWatcher(backend.value, this.pollMs, this.busy);
      this.watcher.onChange((change) => this.onChange(toNativeDevices(change.list)));
      this.watcher.onError((error) => this.onChange(toNativeDevices(NONE, error.message)));
    }
    if (!listed.ok) return toNativeDevices(NONE, listed.error.message);
    return toNativeDevices(listed.value);
  }

  dispose(): void {
    this.disposed = true;
    this.watcher?.dispose();
    this.watcher = null;
  }
}
