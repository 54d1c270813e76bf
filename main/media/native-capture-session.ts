/**
 * The `native-capture` media session kind: a native microphone (main/audio Capture, in this
 * process) to the pages. Each 20 ms mono PCM16 frame goes out on the `pcm` stream (its frame
 * timestamp the capture time on this process's monotonic clock) and levels on `levels` (float32
 * rms and peak dBFS, as the transcription kind sends them). Voices records a clone's reference
 * clip from it; the capture benchmark measures it. It stops by itself after `maxMs` (a clone's
 * clip is at most 120 s) with an `ended-at-limit` event; a device that fails ends it with the
 * device's own explanation. With `timings`, a `timings` event every second carries, per frame,
 * when its audio arrived from the device and when it was handed to the page channel.
 */
import { z } from 'zod';
import { FrameKind } from '../../shared/media-frames/frame';
import { LevelMeter } from '../../shared/audio/levels';
import { defineKind } from './session-kinds';
import { nativeMicrophone } from './native-microphone';

export const NativeCaptureOptionsSchema = z
  .object({
    device: z.string().max(500).optional(),
    sampleRate: z.number().int().min(8000).max(48_000).default(16_000),
    maxMs: z.number().int().min(100).max(600_000).default(120_000),
    timings: z.boolean().default(false),
    /** Take no audio until a page subscribes to `pcm` (a clip starts with its first word, not before the page listens). */
    waitForSubscriber: z.boolean().default(true),
  })
  .strict();

export const nativeCaptureKind = defineKind({
  kind: 'native-capture',
  options: NativeCaptureOptionsSchema,
  async start(ctx, options) {
    const pcmOut = ctx.openOutput('pcm');
    const levelsOut = ctx.openOutput('levels');
    const meter = new LevelMeter(options.sampleRate, 1, (level) => {
      const payload = new Uint8Array(8);
      const view = new DataView(payload.buffer);
      view.setFloat32(0, level.rmsDbfs);
      view.setFloat32(4, level.peakDbfs);
      levelsOut.send(FrameKind.Data, payload);
    });
    let frames = 0;
    let done = false;
    const maxFrames = Math.ceil(options.maxMs / 20);
    // Timestamps of this process's monotonic clock; performance.now() + timeOrigin is the same clock.
    const origin = performance.timeOrigin;
    let timings: number[] = [];
    const flushTimings = () => {
      if (timings.length > 0) ctx.event('timings', { captureSent: timings });
      timings = [];
    };
    const timer = options.timings ? setInterval(flushTimings, 1000) : null;
    const finish = (error?: { code: 'unsupported'; message: string }) => {
      if (done) return;
      done = true;
      if (timer) clearInterval(timer);
      flushTimings();
      mic.dispose();
      ctx.event('stats', { frames });
      ctx.end(error);
    };
    const mic = await nativeMicrophone(
      ctx,
      { sampleRate: options.sampleRate, device: options.device },
      (bytes, _at, frame) => {
        if (done || (options.waitForSubscriber && frames === 0 && pcmOut.subscribers() === 0)) return;
        const capturedAt = origin + frame.capturedAt;
        pcmOut.send(FrameKind.Audio, bytes, capturedAt);
        if (options.timings) timings.push(capturedAt, ctx.now());
        meter.push(frame.pcm);
        frames++;
        if (frames >= maxFrames) {
          ctx.event('ended-at-limit', { frames, ms: frames * 20 });
          finish();
        }
      },
      (error) => finish({ code: 'unsupported', message: `${error.message.replace(/[.\s]*$/, '.')} The recording stopped there.` }),
    );
    return {
      stop() {
        if (done) return;
        done = true;
        if (timer) clearInterval(timer);
        flushTimings();
        mic.dispose();
        ctx.event('stats', { frames });
      },
    };
  },
});
