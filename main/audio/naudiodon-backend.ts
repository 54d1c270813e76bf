/**
 * The native backend: PortAudio through naudiodon (the only module of the app that imports it).
 *
 * Notes on naudiodon that shape this file:
 * - getDevices() initialises and terminates PortAudio on each call, so polling it sees devices
 *   come and go (while a stream is open PortAudio stays initialised and the list is the one
 *   from when it opened).
 * - A read stream hands out `highwaterMark` bytes per chunk and waits until that many are there:
 *   it is set to one period (20 ms) so capture is not delayed by 16 KiB.
 * - The output callback blocks until a chunk is queued, so playback keeps writing (silence when
 *   idle); a write's callback fires when its chunk enters the native queue of `maxQueue` chunks,
 *   which paces the writer. What is in that queue cannot be taken back: discard() drops nothing.
 * - What a flush cannot take back (read from naudiodon 2.3.6's src/*.cc): the next write, blocked
 *   in a libuv worker until the queue has room; the `maxQueue` queued chunks; the chunk the
 *   PortAudio callback is copying from; and PortAudio's host buffer. Pa_OpenStream gets the
 *   device's defaultLowOutputLatency as suggestedLatency (no option; 0 for ALSA's plugin PCMs)
 *   and `framesPerBuffer`, from which PortAudio (19.6, ALSA) sizes its host buffer: measured by
 *   wrapping snd_pcm_hw_params, 96 frames (2 ms at 48 kHz) gives 192-frame periods and a 576-frame
 *   buffer (12 ms), 56 frames gives 112 × 4 = 448 (9.3 ms), likewise ≈ 9.3 ms at 44.1, 24 and
 *   16 kHz with ≈ 1.17 ms callbacks. The callback size is independent of our chunks (naudiodon's
 *   callback copies across them), so `lowLatency` outputs ask for those callbacks (LOW_LATENCY_CALLBACK_MS).
 * - abort() throws "Quit expects 1 argument": its JavaScript passes a callback to the native
 *   quit('ABORT'), which takes one argument. A working ABORT would not help a flush anyway: the
 *   native quit first lets the queue drain and the callback then returns paComplete, on which
 *   PortAudio drains its ALSA buffer (the audio plays out); only then, after a 20 ms sleep, come
 *   Pa_AbortStream, Pa_CloseStream and Pa_Terminate, and a new stream means Pa_Initialize
 *   (15-55 ms on this thread, the device scan). quit(cb) works (quit('WAIT') then cb) and is what close() uses.
 * - A device that disappears mostly stops delivering instead of failing: capture and playback
 *   watch for that (a stall) on top of the stream's own errors.
 */
import type { AudioError, AudioResult } from '../../shared/audio/errors';
import { assignIds, resolveDevice, type AudioBackend, type AudioDevice, type DeviceList, type InputStream, type OpenOptions, type OutputStream } from './types';

type Naudiodon = typeof import('naudiodon');
type IoStreamRead = import('naudiodon').IoStreamRead;
type IoStreamWrite = import('naudiodon').IoStreamWrite;

/** One period of audio per chunk for capture (and output unless the opener asks for less). */
const PERIOD_MS = 20;
/** Chunks the native output queue holds ahead of the device, unless the opener says. */
const OUTPUT_QUEUE = 2;
const NO_DEVICE = 0xffffffff;
/**
 * PortAudio callback size for `lowLatency` outputs: ≈ 1.17 ms (56 frames at 48 kHz) makes
 * PortAudio's ALSA buffer ≈ 9.3 ms instead of 12 with 2 ms callbacks (measured, see above).
 */
const LOW_LATENCY_CALLBACK_MS = 7 / 6;

/**
 * Loads naudiodon (a native module; loaded only by whoever asks for the native backend) and
 * returns the backend, or why the native audio library is unavailable.
 */
export async function createNaudiodonBackend(): Promise<AudioResult<AudioBackend>> {
  let lib: Naudiodon;
  try {
    const mod = (await import('naudiodon')) as Naudiodon & { default?: Naudiodon };
    lib = mod.default ?? mod;
  } catch (error) {
    return { ok: false, error: { code: 'device_error', message: `The native audio library could not load: ${(error as Error).message}` } };
  }
  return { ok: true, value: nativeBackend(lib) };
}

function nativeBackend(naudiodon: Naudiodon): AudioBackend {
  const listDevices = (): AudioResult<DeviceList> => {
    try {
      const raw = naudiodon.getDevices();
      const hosts = naudiodon.getHostAPIs();
      const devices = assignIds(
        raw.map((d) => ({
          index: d.id,
          name: d.name,
          hostApi: d.hostAPIName,
          maxInputChannels: d.maxInputChannels,
          maxOutputChannels: d.maxOutputChannels,
          defaultSampleRate: d.defaultSampleRate,
        })),
      );
      const host = hosts.HostAPIs[hosts.defaultHostAPI];
      const byIndex = (index: number | undefined) => (index === undefined || index === NO_DEVICE ? null : (devices.find((d) => d.index === index)?.id ?? null));
      return { ok: true, value: { devices, defaultInputId: byIndex(host?.defaultInput), defaultOutputId: byIndex(host?.defaultOutput) } };
    } catch (error) {
      return { ok: false, error: { code: 'device_error', message: `The audio devices could not be listed: ${(error as Error).message}` } };
    }
  };

  const open = <T>(direction: 'input' | 'output', options: OpenOptions, make: (lib: Naudiodon, device: AudioDevice, rate: number, channels: number) => T): AudioResult<T> => {
    const list = listDevices();
    if (!list.ok) return list;
    const device = resolveDevice(list.value, options.deviceId, direction);
    if (!device.ok) return device;
    const max = direction === 'input' ? device.value.maxInputChannels : device.value.maxOutputChannels;
    const channels = options.channels ?? Math.min(direction === 'input' ? 1 : 2, max);
    const rate = options.sampleRate ?? device.value.defaultSampleRate;
    try {
      return { ok: true, value: make(naudiodon, device.value, rate, channels) };
    } catch (error) {
      return { ok: false, error: { code: 'device_error', message: `"${device.value.name}" could not be opened at ${rate} Hz, ${channels} channel(s): ${(error as Error).message}` } };
    }
  };

  return {
    name: 'naudiodon',
    listDevices,
    openInput: (options) => open('input', options, (lib, device, rate, channels) => new NativeInput(lib, device, rate, channels)),
    openOutput: (options) =>
      open('output', options, (lib, device, rate, channels) => new NativeOutput(lib, device, rate, channels, options.periodMs ?? PERIOD_MS, options.queuePeriods ?? OUTPUT_QUEUE, options.lowLatency === true)),
  };
}

function framesPerPeriod(rate: number, periodMs = PERIOD_MS): number {
  return Math.max(1, Math.round((rate * periodMs) / 1000));
}

/** Copies a Buffer (any alignment) into Int16 samples. */
function toInt16(buf: Buffer): Int16Array {
  const out = new Int16Array(buf.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = buf.readInt16LE(i * 2);
  return out;
}

class NativeInput implements InputStream {
  private readonly io: IoStreamRead;
  private closed = false;

  constructor(
    lib: Naudiodon,
    readonly device: AudioDevice,
    readonly sampleRate: number,
    readonly channels: number,
  ) {
    const frames = framesPerPeriod(sampleRate);
    this.io = lib.AudioIO({
      inOptions: {
        deviceId: device.index,
        sampleRate,
        channelCount: channels,
        sampleFormat: lib.SampleFormat16Bit,
        framesPerBuffer: frames,
        highwaterMark: frames * channels * 2,
        maxQueue: 8,
        closeOnError: false, // an input overflow (the process was busy) is not a reason to stop
      },
    });
  }

  start(onData: (pcm: Int16Array) => void, onError: (error: AudioError) => void): void {
    this.io.on('data', (buf: Buffer) => {
      if (!this.closed) onData(toInt16(buf));
    });
    this.io.on('error', (error: Error) => {
      if (this.closed) return;
      this.closed = true;
      onError({ code: 'device_error', message: `"${this.device.name}" failed: ${error.message}` });
    });
    this.io.start();
  }

  close(): Promise<void> {
    this.closed = true;
    return quit(this.io);
  }
}

/**
 * Stops a stream. naudiodon's abort() throws ("Quit expects 1 argument", 2.3.6), so this uses
 * quit(), which lets the queued chunks play out; a device that hangs is given up on after a second.
 */
function quit(io: IoStreamRead | IoStreamWrite): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 1000);
    try {
      io.quit(() => {
        clearTimeout(timer);
        resolve();
      });
    } catch {
      clearTimeout(timer);
      resolve();
    }
  });
}

class NativeOutput implements OutputStream {
  private readonly io: IoStreamWrite;
  private readonly periodFrames: number;
  private listener: ((error: AudioError) => void) | null = null;
  private failed: AudioError | null = null;
  private closed = false;
  private written = 0;
  /** Frames of the last writes taken, newest last (chunks vary: a flush's silence tail is longer). */
  private readonly taken: number[] = [];
  /** When the last write entered the native queue, and how much was then ahead of the device. */
  private lastAcceptedAt = 0;
  private aheadAtAccept = 0;

  constructor(
    lib: Naudiodon,
    readonly device: AudioDevice,
    readonly sampleRate: number,
    readonly channels: number,
    periodMs: number,
    private readonly queue: number,
    lowLatency: boolean,
  ) {
    this.periodFrames = framesPerPeriod(sampleRate, periodMs);
    const callbackFrames = lowLatency ? Math.min(this.periodFrames, framesPerPeriod(sampleRate, LOW_LATENCY_CALLBACK_MS)) : this.periodFrames;
    this.io = lib.AudioIO({
      outOptions: {
        deviceId: device.index,
        sampleRate,
        channelCount: channels,
        sampleFormat: lib.SampleFormat16Bit,
        framesPerBuffer: callbackFrames,
        highwaterMark: this.periodFrames * channels * 2,
        maxQueue: queue,
        closeOnError: false, // an underflow is counted by the jitter buffer, not fatal
      },
    });
    this.io.on('error', (error: Error) => this.fail({ code: 'device_error', message: `"${device.name}" failed: ${error.message}` }));
    this.io.start();
  }

  write(pcm: Int16Array): Promise<void> {
    if (this.closed || this.failed) return Promise.resolve();
    const buf = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
    return new Promise((resolve) => {
      this.io.write(Buffer.from(buf), () => {
        const frames = pcm.length / this.channels;
        this.written += frames;
        this.lastAcceptedAt = performance.now();
        // The queue is full again: its chunks (this one the newest) plus half the one the device is playing.
        this.taken.push(frames);
        if (this.taken.length > this.queue + 1) this.taken.shift();
        const queued = this.taken.slice(-this.queue).reduce((n, f) => n + f, 0);
        const playing = this.taken.length > this.queue ? this.taken[0] / 2 : 0;
        this.aheadAtAccept = Math.min(this.written, queued + playing);
        resolve();
      });
    });
  }

  get pendingFrames(): number {
    const elapsed = ((performance.now() - this.lastAcceptedAt) * this.sampleRate) / 1000;
    return Math.max(0, Math.round(this.aheadAtAccept - elapsed));
  }

  discard(): number {
    return 0;
  }

  onError(listener: (error: AudioError) => void): void {
    this.listener = listener;
    if (this.failed) listener(this.failed);
  }

  close(): Promise<void> {
    this.closed = true;
    return quit(this.io);
  }

  private fail(error: AudioError): void {
    if (this.failed || this.closed) return;
    this.failed = error;
    this.listener?.(error);
  }
}
