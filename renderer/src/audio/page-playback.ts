/**
 * The page's speaker behind the same shape as native playback (main/audio/playback.ts):
 * mono PCM16 at the source rate -> an AudioWorklet with the jitter buffer -> the output.
 * flush() answers from the rendering thread with the ms of the current item that were
 * rendered, which is what the realtime console sends in `conversation.item.truncate`.
 * (Native flush() returns a number, this one a Promise: `await` works for both.)
 */
import type { AudioResult } from '@shared/audio/errors';
import playbackWorkletUrl from './playback-worklet.ts?worker&url';
import { PLAYBACK_PROCESSOR, type PlaybackCommand, type PlaybackProcessorOptions, type PlaybackReply } from './messages';
import type { PlaybackCoreStats } from './playback-core';

export interface PagePlaybackOptions {
  sourceRate: number;
  targetDepthMs?: number;
  /** An output device id (Chromium's AudioContext.setSinkId); absent for the default. */
  sinkId?: string | null;
}

export interface PagePlaybackEnv {
  createContext(): AudioContext;
  createWorkletNode(context: AudioContext, name: string, options: AudioWorkletNodeOptions): AudioWorkletNode;
  workletUrl: string;
}

export function browserPlaybackEnv(workletUrl = playbackWorkletUrl): PagePlaybackEnv {
  return {
    createContext: () => new AudioContext({ latencyHint: 'interactive' }),
    createWorkletNode: (context, name, options) => new AudioWorkletNode(context, name, options),
    workletUrl,
  };
}

export class PagePlayback {
  private nextId = 1;
  private readonly pending = new Map<number, (reply: PlaybackReply) => void>();
  private disposed = false;

  private constructor(
    private readonly context: AudioContext,
    private readonly node: AudioWorkletNode,
  ) {
    node.port.onmessage = (event: MessageEvent<PlaybackReply>) => {
      const resolve = this.pending.get(event.data.id);
      this.pending.delete(event.data.id);
      resolve?.(event.data);
    };
  }

  static async open(options: PagePlaybackOptions, env: PagePlaybackEnv = browserPlaybackEnv()): Promise<AudioResult<PagePlayback>> {
    const context = env.createContext();
    try {
      const withSink = context as AudioContext & { setSinkId?: (id: string) => Promise<void> };
      if (options.sinkId && withSink.setSinkId) await withSink.setSinkId(options.sinkId);
      await context.audioWorklet.addModule(env.workletUrl);
      const processorOptions: PlaybackProcessorOptions = { sourceRate: options.sourceRate, targetDepthMs: options.targetDepthMs ?? 60 };
      const node = env.createWorkletNode(context, PLAYBACK_PROCESSOR, { numberOfInputs: 0, numberOfOutputs: 1, outputChannelCount: [context.destination.channelCount >= 2 ? 2 : 1], processorOptions });
      node.connect(context.destination);
      if (context.state === 'suspended') await context.resume();
      return { ok: true, value: new PagePlayback(context, node) };
    } catch (error) {
      void context.close();
      return { ok: false, error: { code: 'device_error', message: `The page's audio output could not start: ${(error as Error).message}` } };
    }
  }

  /** Queues mono PCM16 at the source rate. */
  enqueue(pcm: Int16Array): void {
    const copy = pcm.slice();
    this.send({ type: 'enqueue', pcm: copy }, [copy.buffer]);
  }

  end(): void {
    this.send({ type: 'end' });
  }

  markItem(): void {
    this.send({ type: 'mark' });
  }

  /** Stops the audio now; resolves to the ms of the current item that were heard. */
  async flush(): Promise<number> {
    const reply = await this.ask({ type: 'flush', id: this.nextId++ });
    return reply?.type === 'flushed' ? reply.ms : 0;
  }

  async stats(): Promise<PlaybackCoreStats | null> {
    const reply = await this.ask({ type: 'stats', id: this.nextId++ });
    return reply?.type === 'stats' ? reply.stats : null;
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.node.port.postMessage({ type: 'close' });
    for (const resolve of this.pending.values()) resolve({ type: 'flushed', id: 0, ms: 0 });
    this.pending.clear();
    this.node.disconnect();
    await this.context.close();
  }

  private send(command: PlaybackCommand, transfer: Transferable[] = []): void {
    if (!this.disposed) this.node.port.postMessage(command, transfer);
  }

  private ask(command: PlaybackCommand & { id: number }): Promise<PlaybackReply | null> {
    if (this.disposed) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.pending.set(command.id, resolve);
      this.node.port.postMessage(command);
    });
  }
}
