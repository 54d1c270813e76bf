/**
 * What a device backend offers the audio layer: a device list, and raw PCM16 streams at a
 * device's own rate. naudiodon (native), the timer-driven paced device (tests, benchmarks) and
 * anything else plug in here; capture, playback and the device watcher work on any of them.
 */
import type { AudioError, AudioResult } from '../../shared/audio/errors';

export interface AudioDevice {
  /**
   * Stable while the device stays plugged in: host API and name (PortAudio renumbers devices
   * when one comes or goes, so its index is no identity).
   */
  id: string;
  /** The backend's index for opening it, valid for the listing it came from. */
  index: number;
  name: string;
  hostApi: string;
  maxInputChannels: number;
  maxOutputChannels: number;
  defaultSampleRate: number;
}

export interface DeviceList {
  devices: AudioDevice[];
  defaultInputId: string | null;
  defaultOutputId: string | null;
}

export interface OpenOptions {
  /** A device id from the list; null or absent for the default device. */
  deviceId?: string | null;
  /** Defaults to the device's own rate. */
  sampleRate?: number;
  /** Defaults to 1 for input, and 2 (or the device's maximum if lower) for output. */
  channels?: number;
  /**
   * Output: audio per chunk handed to the device and chunks queued ahead of it. What is queued
   * cannot be taken back (naudiodon), so these bound how long a flush takes to fall silent;
   * smaller means a quicker stop and less slack for a busy process before the device starves.
   */
  periodMs?: number;
  queuePeriods?: number;
  /** Output: ask for the device's smallest buffer (a quicker flush, less slack for a busy writer). */
  lowLatency?: boolean;
}

/** A device delivering interleaved PCM16 at `sampleRate`. */
export interface InputStream {
  readonly device: AudioDevice;
  readonly sampleRate: number;
  readonly channels: number;
  /** Starts delivery. `onError` is called at most once; no data follows it. */
  start(onData: (pcm: Int16Array) => void, onError: (error: AudioError) => void): void;
  close(): Promise<void>;
}

/** A device taking interleaved PCM16 at `sampleRate`. */
export interface OutputStream {
  readonly device: AudioDevice;
  readonly sampleRate: number;
  readonly channels: number;
  /** Queues samples; resolves when the device has room for more, which paces the writer. */
  write(pcm: Int16Array): Promise<void>;
  /** Frames written and not yet played (exact for the paced device, an estimate for native ones). */
  readonly pendingFrames: number;
  /** Drops written frames not yet played, if the device can (native devices cannot): the frames dropped. */
  discard(): number;
  /** Called at most once when the device fails. */
  onError(listener: (error: AudioError) => void): void;
  close(): Promise<void>;
}

export interface AudioBackend {
  readonly name: string;
  listDevices(): AudioResult<DeviceList>;
  openInput(options: OpenOptions): AudioResult<InputStream>;
  openOutput(options: OpenOptions): AudioResult<OutputStream>;
}

/** Picks the device an OpenOptions names from a list, or explains why there is none. */
export function resolveDevice(list: DeviceList, deviceId: string | null | undefined, direction: 'input' | 'output'): AudioResult<AudioDevice> {
  const id = deviceId ?? (direction === 'input' ? list.defaultInputId : list.defaultOutputId);
  const noun = direction === 'input' ? 'microphone' : 'output device';
  if (id === null) return { ok: false, error: { code: 'no_device', message: `No ${noun} found. Plug one in, or check that the system sees it.` } };
  const device = list.devices.find((d) => d.id === id);
  if (!device) {
    return { ok: false, error: { code: 'no_device', message: `The ${noun} "${id}" is not connected. Pick another one, or plug it back in.` } };
  }
  const channels = direction === 'input' ? device.maxInputChannels : device.maxOutputChannels;
  if (channels < 1) return { ok: false, error: { code: 'no_device', message: `"${device.name}" has no ${direction === 'input' ? 'inputs' : 'outputs'}.` } };
  return { ok: true, value: device };
}

/** Gives devices ids from host API and name, numbering repeated names (#2, #3) in list order. */
export function assignIds<T extends Omit<AudioDevice, 'id'>>(devices: T[]): (T & { id: string })[] {
  const seen = new Map<string, number>();
  return devices.map((d) => {
    const base = `${d.hostApi}:${d.name}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return { ...d, id: n === 1 ? base : `${base}#${n}` };
  });
}
