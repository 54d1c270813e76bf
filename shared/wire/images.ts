/**
 * Wire shapes of image generation and editing (spec/service.md "Images" and "Image result";
 * wire-notes §8.1). Shared by the client (main/api), the sandbox (main/sandbox/images) and the
 * Images playground, so every limit is written once.
 */

export const IMAGE_ASPECT_RATIOS = ['auto', '1:1', '3:4', '4:3', '9:16', '16:9', '2:3', '3:2', '9:19.5', '19.5:9', '9:20', '20:9', '1:2', '2:1'] as const;
export type ImageAspectRatio = (typeof IMAGE_ASPECT_RATIOS)[number];

export const IMAGE_RESOLUTIONS = ['1k', '2k'] as const;
export type ImageResolution = (typeof IMAGE_RESOLUTIONS)[number];

export const IMAGE_RESPONSE_FORMATS = ['url', 'b64_json'] as const;
export type ImageResponseFormat = (typeof IMAGE_RESPONSE_FORMATS)[number];

/** Input image types an edit (and image-to-video) accepts. */
export const IMAGE_INPUT_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

export const IMAGE_LIMITS = {
  nMin: 1,
  nMax: 10,
  nDefault: 1,
  /** Used when the model's listing has no `max_prompt_length`. */
  maxPromptLengthDefault: 1024,
  /** Reference images of one multi-image edit (`<IMAGE_0>` ... `<IMAGE_n>`). */
  maxReferenceImages: 10,
  /** Largest input image an edit takes, in bytes (decoded). The service's own limit is not shown; the sandbox uses this. */
  maxInputImageBytes: 20 * 1024 * 1024,
} as const;

/**
 * An input image: a public URL or a base64 data URL (`url`, alias `image_url`), or an uploaded
 * file (`file_id`); `type: "image_url"` is the spec's form and is accepted with `url`.
 */
export interface ImageInput {
  url?: string;
  image_url?: string;
  file_id?: string | null;
  type?: 'image_url';
}

/** `POST /v1/images/generations` body. */
export interface ImageGenerationRequest {
  model?: string;
  prompt: string;
  n?: number;
  response_format?: ImageResponseFormat;
  aspect_ratio?: ImageAspectRatio;
  resolution?: ImageResolution;
  user?: string;
}

/** `POST /v1/images/edits` body: `image` or `images` (multi-reference; `aspect_ratio` only then). */
export interface ImageEditRequest extends ImageGenerationRequest {
  image?: ImageInput;
  images?: ImageInput[];
}

/** One produced image: `url` (response_format url) or `b64_json` (no data-URI prefix). */
export interface ImageDatum {
  url?: string;
  b64_json?: string;
  mime_type?: string;
  revised_prompt?: string;
}

/** The Image result. */
export interface ImageResult {
  data: ImageDatum[];
  usage?: { cost_in_usd_ticks?: number };
}

/** `<IMAGE_0>`-style references in a multi-image edit prompt, in order of first appearance. */
export function imageReferences(prompt: string): number[] {
  const seen: number[] = [];
  for (const m of prompt.matchAll(/<IMAGE_(\d{1,2})>/g)) {
    const i = Number(m[1]);
    if (!seen.includes(i)) seen.push(i);
  }
  return seen;
}
