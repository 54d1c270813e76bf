/**
 * Errors are values: a code, a message a person can act on, and (for service errors) the HTTP
 * status and request id. They cross the contract as plain objects.
 */
import { z } from 'zod';

export const ERROR_CODES = [
  'invalid_input', // the renderer sent something the schema refuses
  'unknown_method',
  'not_found',
  'cancelled',
  'api_error', // the service answered with an error status
  'network', // no answer: refused, reset, DNS, TLS
  'timeout',
  'stream_incomplete', // a stream ended without its terminal marker
  'protocol', // the service answered something we could not parse
  'config', // the app's own settings are wrong (no key for a profile, ...)
  'unsupported', // this shell cannot do it (a native file dialog in browser mode)
  'conflict', // a save based on a stale revision that could not be merged (another window changed the same item)
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Why a service refused, when the fix depends on it and the code and status do not say: the
 * renderer picks its advice (and whether Connections can help) from this, never from the
 * message's words, which main is free to reword.
 */
export const ERROR_REASONS = [
  'key_refused', // the connection's API key was refused (a 401, or the 400 "Incorrect API key"): fixed in Connections
  'secret_refused', // a realtime call's short-lived client secret was refused: start the call again, the key is not at fault
  'team_key_needed', // joining a SIP call needs the API key of the team that owns its number: another key in Connections
] as const;

export type ErrorReason = (typeof ERROR_REASONS)[number];

export const WorkbenchErrorSchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  status: z.number().int().optional(),
  requestId: z.string().optional(),
  /** The service's own error code (`invalid-argument`, `Client specified ...`), when there is one. */
  serviceCode: z.string().optional(),
  /** Why it was refused, when the advice depends on it (ERROR_REASONS). */
  reason: z.enum(ERROR_REASONS).optional(),
  /** For invalid_input: which fields and why. */
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

export type WorkbenchError = z.infer<typeof WorkbenchErrorSchema>;

/** Thrown inside main to carry a WorkbenchError through async code; the host unwraps it. */
export class WorkbenchFailure extends Error {
  readonly error: WorkbenchError;
  constructor(error: WorkbenchError) {
    super(error.message);
    this.name = 'WorkbenchFailure';
    this.error = error;
  }
}

export function isWorkbenchError(value: unknown): value is WorkbenchError {
  return WorkbenchErrorSchema.safeParse(value).success;
}
