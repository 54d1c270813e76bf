/**
 * A timer-driven device backend: inputs deliver PCM from a buffer at their sample rate, one
 * period at a time, and outputs consume what is written at theirs, as a sound card would. It
 * exists because the ALSA file plugin is not paced (it reads a file as fast as it is asked), so
 * timing figures and stall detection need this instead. Devices can be plugged and unplugged
 * while streams are open; an unplugged device goes quiet, as real ones do.
 *
 * Time comes from performance.now() and positions from it (not from counting timer ticks), so
 * the rate stays exact however late the timers fire; only the chunking jitters.
 */
import type { AudioError, AudioResult } from '../../shared/audio/errors';
import { assignIds, resolveDevice, type AudioBackend, type AudioDevice, type DeviceList, type InputStream, type OpenOptions, type OutputStream } from './types';

export interface PacedInputSpec {
  name: string;
  sampleRate: number;
  channels: number;
  /** Interleaved audio to deliver; after its end the input delivers silence (or stops, with `stopAtEnd`). */
  source: Int16Array;
  stopAtEnd?: boolean;
}

export interface PacedOutputSpec {
  name: string;
  sampleRate: number;
  channels: number;
  /** Called with each piece the device "plays", when it plays it. */
  onPlayed?: (pcm: Int16Array, at: number) => void;
}

export interface PacedBackendOptions {
  inputs?: PacedInputSpec[];
  outputs?: PacedOutputSpec[];
  /** Period of delivery and consumption. */
  periodMs?: number;
  /** Periods an output holds ahead of what it plays. */
  outputQueuePeriods?: number;
  /** False makes outputs behave like naudiodon's: discard() drops nothing, queued audio plays out. */
  outputCanDiscard?: boolean;
}

export interface PacedBackend extends AudioBackend {
  /** Plugs a device in (it appears in listDevices()). */
  plug(spec: { input?: PacedInputSpec; output?: PacedOutputSpec }): void;
  /** Unplugs a device by name: it leaves the list and its open streams go quiet. */
  unplug(name: string): void;
}

interface Entry {
  name: string;
  input?: PacedInputSpec;
  output?: PacedOutputSpec;
  plugged: boolean;
  streams: Set<{ unplugged(): void }>;
}

export function createPacedBackend(options: PacedBackendOptions = {}): PacedBackend {
  const periodMs = options.periodMs ?? 20;
  const queuePeriods = options.outputQueuePeriods ?? 2;
  const canDiscard = options.outputCanDiscard ?? true;
  const entries: Entry[] = [];
  const plug = (spec: { input?: PacedInputSpec; output?: PacedOutputSpec }) => {
    const name = spec.input?.name ?? spec.output?.name;
    if (!name) throw new Error('a paced device needs a name');
    const existing = entries.find((e) => e.name === name);
    if (existing) Object.assign(existing, spec, { plugged: true });
    else entries.push({ name, ...spec, plugged: true, streams: new Set() });
  };
  for (const input of options.inputs ?? []) plug({ input });
  for (const output of options.outputs ?? []) plug({ output });

  const listDevices = (): AudioResult<DeviceList> => {
    const plugged = entries.filter((e) => e.plugged);
    const devices = assignIds(
      plugged.map((e, index) => ({
        index,
        name: e.name,
        hostApi: 'Paced',
        maxInputChannels: e.input?.channels ?? 0,
        maxOutputChannels: e.output?.channels ?? 0,
        defaultSampleRate: e.input?.sampleRate ?? e.output?.sampleRate ?? 48000,
      })),
    );
    return {
      ok: true,
      value: {
        devices,
        defaultInputId: devices.find((d) => d.maxInputChannels > 0)?.id ?? null,
        defaultOutputId: devices.find((d) => d.maxOutputChannels > 0)?.id ?? null,
      },
    };
  };

  const find = (direction: 'input' | 'output', options: OpenOptions): AudioResult<{ device: AudioDevice; entry: Entry }> => {
    const list = listDevices();
    if (!list.ok) return list;
    const device = resolveDevice(list.value, options.deviceId, direction);
    if (!device.ok) return device;
    const entry = entries.find((e) => e.plugged && e.name === device.value.name)!;
    const spec = direction === 'input' ? entry.input! : entry.output!;
    if ((options.sampleRate ?? spec.sampleRate) !== spec.sampleRate || (options.channels ?? spec.channels) !== spec.channels) {
      return { ok: false, error: { code: 'device_error', message: `"${spec.name}" runs at ${spec.sampleRate} Hz with ${spec.channels} channel(s) only.` } };
    }
    return { ok: true, value: { device: device.value, entry } };
  };

  return {
    name: 'paced',
    listDevices,
    openInput(options) {
      const found = find('input', options);
      if (!found.ok) return found;
      return { ok: true, value: new PacedInput(found.value.device, found.value.entry, periodMs) };
    },
    openOutput(options) {
      const found = find('output', options);
      if (!found.ok) return found;
      return { ok: true, value: new PacedOutput(found.value.device, found.value.entry, periodMs, queuePeriods, canDiscard) };
    },
    plug,
    unplug(name) {
      const entry = entries.find((e) => e.name === name);
      if (!entry) return;
      entry.plugged = false;
      for (const stream of entry.streams) stream.unplugged();
    },
  };
}

class PacedInput implements InputStream {
  readonly sampleRate: number;
  readonly channels: number;
  private readonly spec: PacedInputSpec;
  private readonly periodFrames: number;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private startedAt = 0;
  private delivered = 0;
  private quiet = false;

  constructor(
    readonly device: AudioDevice,
    private readonly entry: Entry,
    private readonly periodMs: number,
  ) {
    this.spec = entry.input!;
    this.sampleRate = this.spec.sampleRate;
    this.channels = this.spec.channels;
    this.periodFrames = Math.round((this.sampleRate * periodMs) / 1000);
    entry.streams.add(this);
  }

  start(onData: (pcm: Int16Array) => void, _onError: (error: AudioError) => void): void {
    this.startedAt = performance.now();
    const tick = () => {
      if (this.quiet) return;
      const due = Math.floor(((performance.now() - this.startedAt) * this.sampleRate) / 1000);
      while (due - this.delivered >= this.periodFrames) {
        const from = this.delivered * this.channels;
        const pcm = new Int16Array(this.periodFrames * this.channels);
        if (from < this.spec.source.length) pcm.set(this.spec.source.subarray(from, from + pcm.length));
        else if (this.spec.stopAtEnd) return;
        this.delivered += this.periodFrames;
        onData(pcm);
        if (this.quiet) return;
      }
      // Wake at the next period boundary.
      const nextAt = this.startedAt + ((this.delivered + this.periodFrames) * 1000) / this.sampleRate;
      this.timer = setTimeout(tick, Math.max(0, nextAt - performance.now()));
    };
    this.timer = setTimeout(tick, this.periodMs);
  }

  unplugged(): void {
    this.quiet = true;
    if (this.timer) clearTimeout(this.timer);
  }

  close(): Promise<void> {
    this.unplugged();
    this.entry.streams.delete(this);
    return Promise.resolve();
  }
}

class PacedOutput implements OutputStream {
  readonly sampleRate: number;
  readonly channels: number;
  private readonly spec: PacedOutputSpec;
  private readonly capacity: number;
  private queue: Int16Array[] = [];
  private queued = 0;
  /** Frames of queue[0] already played. */
  private offset = 0;
  private waiting: (() => void)[] = [];
  private timer: ReturnType<typeof setInterval> | null = null;
  private startedAt = -1;
  private played = 0;
  private quiet = false;

  constructor(
    readonly device: AudioDevice,
    private readonly entry: Entry,
    periodMs: number,
    queuePeriods: number,
    private readonly canDiscard: boolean,
  ) {
    this.spec = entry.output!;
    this.sampleRate = this.spec.sampleRate;
    this.channels = this.spec.channels;
    const periodFrames = Math.round((this.sampleRate * periodMs) / 1000);
    this.capacity = periodFrames * queuePeriods;
    entry.streams.add(this);
    this.timer = setInterval(() => this.consume(), Math.max(1, periodMs / 4));
  }

  write(pcm: Int16Array): Promise<void> {
    if (this.quiet) return new Promise(() => {}); // an unplugged card never takes more: the writer's stall check notices
    if (this.startedAt < 0) this.startedAt = performance.now();
    this.queue.push(pcm);
    this.queued += pcm.length / this.channels;
    if (this.queued - this.offset <= this.capacity) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  get pendingFrames(): number {
    return this.queued - this.offset;
  }

  discard(): number {
    if (!this.canDiscard) return 0;
    const dropped = this.pendingFrames;
    this.queue = [];
    this.queued = 0;
    this.offset = 0;
    this.release();
    return dropped;
  }

  onError(): void {
    // A paced device never fails by itself; unplugging makes it stall, as a real one does.
  }

  unplugged(): void {
    this.quiet = true;
    if (this.timer) clearInterval(this.timer);
  }

  close(): Promise<void> {
    this.unplugged();
    this.entry.streams.delete(this);
    for (const resolve of this.waiting.splice(0)) resolve();
    return Promise.resolve();
  }

  private consume(): void {
    if (this.startedAt < 0) return;
    const now = performance.now();
    let due = Math.floor(((now - this.startedAt) * this.sampleRate) / 1000) - this.played;
    while (due > 0 && this.queue.length > 0) {
      const chunk = this.queue[0];
      const frames = chunk.length / this.channels;
      const take = Math.min(due, frames - this.offset);
      this.spec.onPlayed?.(chunk.subarray(this.offset * this.channels, (this.offset + take) * this.channels), now);
      this.offset += take;
      this.played += take;
      due -= take;
      if (this.offset === frames) {
        this.queue.shift();
        this.queued -= frames;
        this.offset = 0;
      }
    }
    // Ran dry: the card plays silence and its clock runs on.
    if (due > 0) this.played += due;
    this.release();
  }

  private release(): void {
    while (this.waiting.length > 0 && this.pendingFrames <= this.capacity) this.waiting.shift()!();
    if (this.quiet) this.waiting = [];
  }
}
