/**
 * The capture AudioWorkletProcessor: runs on the audio rendering thread, feeds each render
 * quantum to CaptureCore and posts 20 ms frames (their buffers transferred, not copied) and
 * levels to the page. Loaded with audioWorklet.addModule() (see page-capture.ts).
 */
import { CaptureCore } from './capture-core';
import { CAPTURE_PROCESSOR, type CaptureMessage, type CaptureProcessorOptions } from './messages';

// The AudioWorkletGlobalScope's names (TypeScript's DOM library does not declare them).
declare const sampleRate: number;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
  constructor(options?: { processorOptions?: unknown });
}
declare function registerProcessor(name: string, ctor: new (options: { processorOptions: unknown }) => AudioWorkletProcessor): void;

class CaptureProcessor extends AudioWorkletProcessor {
  private readonly core: CaptureCore;

  constructor(options: { processorOptions: unknown }) {
    super(options);
    const { serviceRate, frameMs, channels } = options.processorOptions as CaptureProcessorOptions;
    this.core = new CaptureCore(sampleRate, serviceRate, frameMs, channels ?? 1);
  }

  process(inputs: Float32Array[][]): boolean {
    const { frames, levels } = this.core.process(inputs[0] ?? []);
    for (const f of frames) {
      const message: CaptureMessage = { type: 'frame', seq: f.seq, startMs: f.startMs, pcm: f.pcm };
      this.port.postMessage(message, [f.pcm.buffer]);
    }
    for (const level of levels) this.port.postMessage({ type: 'level', level } satisfies CaptureMessage);
    return true;
  }
}

registerProcessor(CAPTURE_PROCESSOR, CaptureProcessor);
