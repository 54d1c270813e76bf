/**
 * Videos (`/v1/videos/*`): the three creates, JSON bodies recorded with the job's final result;
 * exported as plain HTTP with the polling loop (the openai SDK's `videos` resource is another API:
 * multipart, other paths and shapes).
 */
import { videosContract } from './contract';
import { VIDEO_EXPORTER } from './codegen';
import type { OwnEndpoint, SharedFamily } from '../types';

const video = {
  entry: 'media',
  method: 'POST',
  input: 'none',
  output: 'none',
  rerun: null,
  structured: null,
  eventTimeline: false,
  code: { kind: 'video', sdk: null, sdkMethod: 'post', toolLoop: false, exporter: VIDEO_EXPORTER },
} as const satisfies Partial<OwnEndpoint>;

export const videosFamily = {
  id: 'videos',
  contract: { key: 'videos', ops: videosContract },
  nav: { route: '/videos', label: 'Videos', title: 'Video jobs', icon: 'videos', order: 70 },
  entry: 'media',
  endpoints: {
    'videos.generations': { ...video, label: 'Video · generate', path: '/v1/videos/generations' },
    'videos.edits': { ...video, label: 'Video · edit', path: '/v1/videos/edits' },
    'videos.extensions': { ...video, label: 'Video · extend', path: '/v1/videos/extensions' },
  },
} as const satisfies SharedFamily;
