/**
 * The playback AudioWorkletProcessor: takes commands from the page (enqueue, end, mark, flush,
 * stats) in order on its port and renders PlaybackCore's audio. flush() answers with the ms
 * heard, from the rendering thread, so the page gets the position at the moment audio stopped.
 */
import { PLAYBACK_PROCESSOR, type PlaybackCommand, type PlaybackProcessorOptions } from './messages';
import { PlaybackCore, handleCommand } from './playback-core';

declare const sampleRate: number;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
  constructor(options?: { processorOptions?: unknown });
}
declare function registerProcessor(name: string, ctor: new (options: { processorOptions: unknown }) => AudioWorkletProcessor): void;

class PlaybackProcessor extends AudioWorkletProcessor {
  private readonly core: PlaybackCore;
  private closed = false;

  constructor(options: { processorOptions: unknown }) {
    super(options);
    const { sourceRate, targetDepthMs } = options.processorOptions as PlaybackProcessorOptions;
    this.core = new PlaybackCore(sampleRate, sourceRate, targetDepthMs);
    this.port.onmessage = (event: MessageEvent<PlaybackCommand | { type: 'close' }>) => {
      const reply = handleCommand(this.core, event.data);
      if (event.data.type === 'close') this.closed = true;
      if (reply) this.port.postMessage(reply);
    };
  }

  process(_inputs: Float32Array[][], outputs: Float32Array[][]): boolean {
    this.core.render(outputs[0] ?? []);
    return !this.closed;
  }
}

registerProcessor(PLAYBACK_PROCESSOR, PlaybackProcessor);
