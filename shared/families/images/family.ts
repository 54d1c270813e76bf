/**
 * Images (`/v1/images/generations`, `/edits`): JSON bodies whose `prompt` is the prompt; History
 * shows the images the run kept (its media entry) and opens the run in the Images playground.
 */
import { imagesContract } from './contract';
import { imagesExporter } from './codegen';
import type { OwnEndpoint, SharedFamily } from '../types';

const image = { entry: 'media', method: 'POST', input: 'prompt', output: 'none', rerun: 'images', structured: null, eventTimeline: false } as const satisfies Partial<OwnEndpoint>;

export const imagesFamily = {
  id: 'images',
  contract: { key: 'images', ops: imagesContract },
  nav: { route: '/images', label: 'Images', icon: 'images', order: 60 },
  entry: 'media',
  endpoints: {
    'images.generations': {
      ...image,
      label: 'Images · generate',
      path: '/v1/images/generations',
      code: { kind: 'image-generate', sdk: 'openai', sdkMethod: 'images.generate', toolLoop: false, exporter: imagesExporter(false) },
    },
    'images.edits': {
      ...image,
      label: 'Images · edit',
      path: '/v1/images/edits',
      code: { kind: 'image-edit', sdk: 'openai', sdkMethod: 'images.edit', toolLoop: false, exporter: imagesExporter(true) },
    },
  },
} as const satisfies SharedFamily;
