/**
 * The checks every text route makes before planning an answer: the body's rule violations (422
 * when any is about its shape, else 400), the model it names (404 when unknown), and a prompt
 * that does not fit the model's context (400).
 */
import { describeViolations } from '../../../shared/validate/chat';
import type { RequestViolation } from '../../../shared/validate/violations';
import { findLanguageModel, type LanguageEntry } from '../catalogue';
import { modelNotFound, SandboxError } from '../errors';
import type { RequestContext } from '../route';

/** A validator that may refuse more for a reasoning model. */
export type BodyValidator = (body: unknown, opts: { reasoningModel?: boolean }) => readonly RequestViolation[];

/** Refuses the request with its violations: 422 when any is about the body's shape, else 400. */
export function refuse(violations: readonly RequestViolation[]): never {
  throw new SandboxError(violations.some((v) => v.kind === 'shape') ? 422 : 400, describeViolations(violations));
}

/** The model a body names, as given, and its catalogue entry when there is one. */
export function modelOf(body: unknown): { id: unknown; entry: LanguageEntry | undefined } {
  const id = typeof body === 'object' && body !== null ? (body as { model?: unknown }).model : undefined;
  return { id, entry: typeof id === 'string' ? findLanguageModel(id) : undefined };
}

/** Validates the body (knowing whether its model reasons), then returns the model: 404 when unknown. */
export function checkedModel(body: unknown, validate: BodyValidator): LanguageEntry {
  const { id, entry } = modelOf(body);
  const violations = validate(body, { reasoningModel: entry?.reasoning });
  if (violations.length > 0) refuse(violations);
  if (!entry) throw modelNotFound(String(id));
  return entry;
}

/**
 * 400 when the prompt is longer than the model's context. `counted` says what was counted ("the
 * request contains"), `advice` what to do about it.
 */
export function checkContext(model: LanguageEntry, promptTokens: number, advice: string, counted = 'the request contains'): void {
  if (promptTokens > model.context_length) {
    throw new SandboxError(400, `This model's maximum prompt length is ${model.context_length} tokens but ${counted} ${promptTokens} tokens. ${advice}`);
  }
}

/** The `Idempotency-Key` header, if sent (1-255 printable characters; anything else is a 400). */
export function idempotencyKey(ctx: RequestContext): string | null {
  const raw = ctx.req.headers['idempotency-key'];
  if (raw === undefined) return null;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new SandboxError(400, 'The Idempotency-Key header must be 1 to 255 printable characters without spaces.');
  }
  return key;
}
