/**
 * Image generation and edit request validators (spec "Images", wire-notes §8.1), shared by the
 * sandbox (which answers with their messages), the client's pre-flight checks and the Images form.
 * Shape problems (missing prompt, wrong JSON type, unknown enum value) are `shape` (422); broken
 * rules (n out of range, prompt too long, unknown field, aspect_ratio on a one-image edit) are
 * `value` (400). What is inside each input image object is checked where it is resolved.
 */
import { IMAGE_ASPECT_RATIOS, IMAGE_LIMITS, IMAGE_RESOLUTIONS, IMAGE_RESPONSE_FORMATS, imageReferences } from '../../wire/images';
import { collect, expectEnum, expectType, isObject, isUnset, shape, value, type RequestViolation } from '../../validate/violations';

export interface ImageValidationOptions {
  /** The model's `max_prompt_length` (default IMAGE_LIMITS.maxPromptLengthDefault). */
  maxPromptLength?: number;
}

const GENERATION_FIELDS = ['model', 'prompt', 'n', 'response_format', 'aspect_ratio', 'resolution', 'user', 'stream'];
const EDIT_FIELDS = [...GENERATION_FIELDS, 'image', 'images'];

/** What to use instead of the OpenAI-style fields this API does not have. */
const INSTEAD: Record<string, string> = {
  size: 'use aspect_ratio (e.g. "16:9") and resolution ("1k" or "2k") instead',
  quality: 'use resolution ("1k" or "2k") instead',
  style: 'describe the style in the prompt instead',
  mask: 'masks are not supported; describe the change in the prompt',
  output_format: 'images are always JPEG (mime_type "image/jpeg")',
};

/** All rule violations of a `POST /v1/images/generations` body; empty when valid. */
export function validateImageGenerationRequest(body: unknown, opts: ImageValidationOptions = {}): RequestViolation[] {
  if (!isObject(body)) return [shape('body', 'the request body must be a JSON object')];
  return collect(unknownFields(body, GENERATION_FIELDS, 'POST /v1/images/generations'), common(body, opts));
}

/** All rule violations of a `POST /v1/images/edits` body (image XOR images; aspect_ratio only with images). */
export function validateImageEditRequest(body: unknown, opts: ImageValidationOptions = {}): RequestViolation[] {
  if (!isObject(body)) return [shape('body', 'the request body must be a JSON object')];
  const b = body;
  const out = collect(unknownFields(b, EDIT_FIELDS, 'POST /v1/images/edits'), common(b, opts));
  const hasImage = !isUnset(b.image);
  const hasImages = !isUnset(b.images);
  if (hasImage && hasImages) {
    out.push(value('image', 'image and images are mutually exclusive: give image for one input, or images (up to 10) for a multi-reference edit'));
  } else if (!hasImage && !hasImages) {
    out.push(shape('image', 'image is required: {"url": "..."} or {"file_id": "..."} (or images: [...] for a multi-reference edit)'));
  } else if (hasImage) {
    if (!isObject(b.image)) out.push(shape('image', 'image must be an object: {"url": "..."} or {"file_id": "..."}'));
    if (!isUnset(b.aspect_ratio) && b.aspect_ratio !== 'auto') {
      out.push(value('aspect_ratio', 'aspect_ratio is only allowed for multi-image edits (images: [...]); a one-image edit keeps the input\'s aspect ratio'));
    }
  } else if (!Array.isArray(b.images)) {
    out.push(shape('images', 'images must be an array of image objects'));
  } else {
    const count = b.images.length;
    if (count < 1 || count > IMAGE_LIMITS.maxReferenceImages) {
      out.push(value('images', `images must have 1 to ${IMAGE_LIMITS.maxReferenceImages} entries; got ${count}`));
    }
    b.images.forEach((entry, i) => {
      if (!isObject(entry)) out.push(shape(`images[${i}]`, `images[${i}] must be an object: {"url": "..."} or {"file_id": "..."}`));
    });
  }
  if (typeof b.prompt === 'string' && (hasImage || Array.isArray(b.images))) {
    const count = hasImage ? 1 : (b.images as unknown[]).length;
    const missing = imageReferences(b.prompt).find((k) => k >= count);
    if (missing !== undefined) {
      out.push(value('prompt', `prompt refers to <IMAGE_${missing}> but the request has ${count} input image${count === 1 ? '' : 's'} (<IMAGE_0>${count > 1 ? ` to <IMAGE_${count - 1}>` : ''})`));
    }
  }
  return out;
}

function unknownFields(b: Record<string, unknown>, allowed: readonly string[], endpoint: string): RequestViolation[] {
  return Object.keys(b)
    .filter((k) => !allowed.includes(k))
    .map((k) => value(k, `${k} is not a field of ${endpoint}${INSTEAD[k] ? `: ${INSTEAD[k]}` : ''}`));
}

function common(b: Record<string, unknown>, opts: ImageValidationOptions): RequestViolation[] {
  return collect(
    validateModel(b.model),
    validatePrompt(b.prompt, opts.maxPromptLength ?? IMAGE_LIMITS.maxPromptLengthDefault),
    validateN(b.n),
    expectEnum('response_format', b.response_format, IMAGE_RESPONSE_FORMATS),
    expectEnum('aspect_ratio', b.aspect_ratio, IMAGE_ASPECT_RATIOS),
    expectEnum('resolution', b.resolution, IMAGE_RESOLUTIONS),
    expectType('user', b.user, 'string'),
    expectType('stream', b.stream, 'boolean') ?? (b.stream === true ? value('stream', 'streaming is not supported for image models; leave stream unset or false') : null),
  );
}

/** Optional here (the default image model is used), but a string and not blank when given. */
function validateModel(model: unknown): RequestViolation | null {
  if (isUnset(model)) return null;
  if (typeof model !== 'string') return shape('model', 'model must be a string');
  if (model.trim() === '') return value('model', 'model must not be empty; leave it out for the default image model');
  return null;
}

function validatePrompt(prompt: unknown, max: number): RequestViolation | null {
  if (isUnset(prompt)) return shape('prompt', 'prompt is required: describe the image');
  if (typeof prompt !== 'string') return shape('prompt', 'prompt must be a string');
  if (prompt.trim() === '') return value('prompt', 'prompt must not be empty: describe the image');
  const length = [...prompt].length;
  if (length > max) return value('prompt', `prompt is ${length} characters; this model takes at most ${max}`);
  return null;
}

function validateN(n: unknown): RequestViolation | null {
  const type = expectType('n', n, 'integer');
  if (type || isUnset(n)) return type;
  if ((n as number) < IMAGE_LIMITS.nMin || (n as number) > IMAGE_LIMITS.nMax) {
    return value('n', `n must be between ${IMAGE_LIMITS.nMin} and ${IMAGE_LIMITS.nMax}; got ${n as number}`);
  }
  return null;
}
