/**
 * The device list and hot-plug: polls the backend (PortAudio has no change notifications that
 * naudiodon exposes) and reports devices added and removed and default changes. Listing is
 * synchronous and, when no stream is open, costs a PortAudio initialisation and termination:
 * 15–55 ms with ALSA measured on the test machine, all of it blocking the caller's event loop
 * (with a stream open it is free, and the list is PortAudio's from when the stream opened). So it
 * polls every couple of seconds, not faster, and an owner whose loop carries real-time audio can
 * hold the timer's polls while it does (`holdWhile`).
 */
import type { AudioError } from '../../shared/audio/errors';
import type { AudioBackend, AudioDevice, DeviceList } from './types';

export interface DeviceChange {
  added: AudioDevice[];
  removed: AudioDevice[];
  defaultsChanged: boolean;
  list: DeviceList;
}

export class DeviceWatcher {
  private current: DeviceList | null = null;
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly changeListeners = new Set<(change: DeviceChange) => void>();
  private readonly errorListeners = new Set<(error: AudioError) => void>();
  private lastError: string | null = null;

  constructor(
    private readonly backend: AudioBackend,
    intervalMs = 2000,
    /** While this says true the timer skips its polls (poll() by hand still lists). */
    holdWhile: () => boolean = () => false,
  ) {
    this.poll();
    this.timer = setInterval(() => {
      if (!holdWhile()) this.poll();
    }, intervalMs);
  }

  /** The list as of the last poll (null if listing failed every time so far). */
  get list(): DeviceList | null {
    return this.current;
  }

  onChange(listener: (change: DeviceChange) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Listing failures, reported once until listing works again. */
  onError(listener: (error: AudioError) => void): () => void {
    this.errorListeners.add(listener);
    return () => this.errorListeners.delete(listener);
  }

  /** Lists now (also done on the timer); reports what changed since the last poll. */
  poll(): void {
    const result = this.backend.listDevices();
    if (!result.ok) {
      if (this.lastError !== result.error.message) {
        this.lastError = result.error.message;
        for (const l of this.errorListeners) l(result.error);
      }
      return;
    }
    this.lastError = null;
    const next = result.value;
    const before = this.current;
    this.current = next;
    if (!before) return;
    const had = new Set(before.devices.map((d) => d.id));
    const has = new Set(next.devices.map((d) => d.id));
    const added = next.devices.filter((d) => !had.has(d.id));
    const removed = before.devices.filter((d) => !has.has(d.id));
    const defaultsChanged = before.defaultInputId !== next.defaultInputId || before.defaultOutputId !== next.defaultOutputId;
    if (added.length === 0 && removed.length === 0 && !defaultsChanged) return;
    for (const l of this.changeListeners) l({ added, removed, defaultsChanged, list: next });
  }

  dispose(): void {
    clearInterval(this.timer);
    this.changeListeners.clear();
    this.errorListeners.clear();
  }
}
