/**
 * The service's limits, declared once (spec/service.md "Limits"). Used by the renderer's forms,
 * the client's pre-flight checks and the sandbox's validation, so the three cannot drift apart.
 */
export const LIMITS = {
  temperature: { min: 0, max: 2 },
  topP: { min: 0, max: 1 },
  penalty: { min: -2, max: 2 },
  logitBias: { min: -100, max: 100 },
  topLogprobs: { min: 0, max: 8 },
  stopSequences: { max: 4 },
  tools: { max: 128 },
  /** Default of chat `max_completion_tokens` and responses `max_output_tokens` when unset. */
  defaultMaxOutputTokens: 128_000,
  n: { min: 1, max: 8 },
  reasoningEffort: ['none', 'low', 'medium', 'high'] as const,
  serviceTier: ['default', 'priority'] as const,
  ttsText: { max: 60_000 },
  ttsSpeed: { min: 0.7, max: 1.5 },
  videoDuration: { min: 1, max: 15, default: 8 },
  videoExtensionDuration: { min: 2, max: 10, default: 6 },
  referenceAudios: { max: 3 },
  storageExpiresAfter: { max: 2_592_000 },
  storedResponseDays: 30,
  customVoiceAudioSeconds: { max: 120 },
  customVoiceListLimit: { min: 1, max: 1000, default: 100 },
} as const;

/** A rule broken by a value: the field, and a sentence a person can act on. */
export interface LimitViolation {
  field: string;
  message: string;
}

/** `temperature must be between 0 and 2` style message for a numeric range. */
export function checkRange(
  field: string,
  value: number | null | undefined,
  range: { min: number; max: number },
): LimitViolation | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'number' || Number.isNaN(value)) {
    return { field, message: `${field} must be a number` };
  }
  if (value < range.min || value > range.max) {
    return { field, message: `${field} must be between ${range.min} and ${range.max}` };
  }
  return null;
}

/** Integer range check with the same message shape. */
export function checkIntRange(
  field: string,
  value: number | null | undefined,
  range: { min: number; max: number },
): LimitViolation | null {
  if (value === null || value === undefined) return null;
  if (!Number.isInteger(value)) return { field, message: `${field} must be an integer` };
  return checkRange(field, value, range);
}
