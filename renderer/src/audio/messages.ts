/** Messages between the page and the audio worklets (over the AudioWorkletNode's port). */
import type { Level } from '@shared/audio/levels';
import type { PlaybackCoreStats } from './playback-core';

export const CAPTURE_PROCESSOR = 'workbench-capture';
export const PLAYBACK_PROCESSOR = 'workbench-playback';

export interface CaptureProcessorOptions {
  serviceRate: number;
  frameMs: number;
  /** 2: interleaved stereo frames; absent: mono. */
  channels?: 1 | 2;
}

export type CaptureMessage =
  | { type: 'frame'; seq: number; startMs: number; pcm: Int16Array }
  | { type: 'level'; level: Level };

export interface PlaybackProcessorOptions {
  sourceRate: number;
  targetDepthMs: number;
}

export type PlaybackCommand =
  | { type: 'enqueue'; pcm: Int16Array }
  | { type: 'end' }
  | { type: 'mark' }
  | { type: 'flush'; id: number }
  | { type: 'stats'; id: number };

export type PlaybackReply = { type: 'flushed'; id: number; ms: number } | { type: 'stats'; id: number; stats: PlaybackCoreStats };
