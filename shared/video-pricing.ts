/**
 * What a video costs. The service's listings carry no video price, so the rate is the one the
 * sandbox bills at (per second of output, by resolution): the sandbox charges with it, and the
 * Videos view estimates with it before sending on a sandbox connection. One table, so the
 * estimate and the bill cannot drift apart.
 */
import { TICKS_PER_CENT } from './cost';
import type { VideoMode } from './families/videos/contract';
import { VIDEO_LIMITS, VIDEO_RESOLUTIONS, type VideoResolution } from './wire/videos';

/** US cents per second of output video, by resolution (every video model). 8 s at 720p = 80 cents. */
export const VIDEO_PRICE_CENTS_PER_SECOND: Readonly<Record<VideoResolution, number>> = { '480p': 5, '720p': 10, '1080p': 20 };

/** The resolution a generation gets when the request names none. */
export const VIDEO_DEFAULT_RESOLUTION: VideoResolution = '720p';

/** Price in USD ticks: seconds times the resolution's cents per second. */
export function videoCostTicks(seconds: number, resolution: VideoResolution): number {
  return seconds * VIDEO_PRICE_CENTS_PER_SECOND[resolution] * TICKS_PER_CENT;
}

/**
 * A create's cost before it is sent. A generation's length and resolution are the request's (or
 * the defaults): one figure. An extension's resolution is its input's, unknown here: the range
 * over resolutions for its length. An edit's length and resolution are both its input's: a
 * price per second of the input, from the lowest resolution's to the highest's.
 */
export type VideoEstimate =
  | { kind: 'exact'; ticks: number; seconds: number; resolution: VideoResolution }
  | { kind: 'range'; minTicks: number; maxTicks: number; seconds: number }
  | { kind: 'per-second'; minTicks: number; maxTicks: number };

export function estimateVideoCost(request: { mode: VideoMode; duration?: number; resolution?: VideoResolution }): VideoEstimate {
  const lowest = VIDEO_RESOLUTIONS[0];
  const highest = VIDEO_RESOLUTIONS[VIDEO_RESOLUTIONS.length - 1]!;
  if (request.mode === 'generate') {
    const seconds = request.duration ?? VIDEO_LIMITS.durationDefault;
    const resolution = request.resolution ?? VIDEO_DEFAULT_RESOLUTION;
    return { kind: 'exact', ticks: videoCostTicks(seconds, resolution), seconds, resolution };
  }
  if (request.mode === 'extend') {
    const seconds = request.duration ?? VIDEO_LIMITS.extensionDurationDefault;
    return { kind: 'range', minTicks: videoCostTicks(seconds, lowest), maxTicks: videoCostTicks(seconds, highest), seconds };
  }
  return { kind: 'per-second', minTicks: videoCostTicks(1, lowest), maxTicks: videoCostTicks(1, highest) };
}
