/**
 * Drafts: each playground's unsent form (conversation, system prompt, parameters, tools, model,
 * and whatever else its store puts in it) kept by main, so a reload, a restart or a crash loses
 * nothing. A draft is one opaque JSON value per key, replaced whole; every change bumps the key's
 * revision and is announced with `drafts.changed` so other windows can adopt it.
 */
import { z } from 'zod';
import { call, event } from './define';
import { formatBytes } from '../byte-size';

/** The largest draft kept, as UTF-8 JSON: a form past this is refused with its size said. */
export const DRAFT_MAX_BYTES = 2 * 1024 * 1024;

/**
 * Why a form is not kept, in words (main and the page say the same). Near the bound, rounded
 * sizes would read "2 MB is larger than 2 MB", so both are given in bytes there.
 */
export function draftTooLargeMessage(bytes: number, maxBytes: number = DRAFT_MAX_BYTES): string {
  const near = formatBytes(bytes) === formatBytes(maxBytes);
  const size = (n: number): string => (near ? `${n.toLocaleString('en-US')} bytes` : formatBytes(n));
  return `This form (${size(bytes)}) is larger than the ${size(maxBytes)} a draft can keep, so it will not survive a reload. Shorten it (a large paste or image) to keep it.`;
}

/** How many keys main keeps drafts for (one per playground today; room for new views). */
export const DRAFT_MAX_KEYS = 64;

/**
 * A draft's key: the playground's name (`chat`, `messages`, `legacy`, `responses`, `compare`).
 * Any such name is accepted, so a new view drafts its form without a contract change.
 */
export const DraftKeySchema = z
  .string()
  .regex(/^[a-z][a-z0-9-]{0,63}$/, 'a draft key is a lower-case name such as "chat"');

/** Who wrote a change: a random id each page makes once, so it can tell its own writes apart. */
export const DraftWriterSchema = z.string().min(1).max(64);

/** A kept draft. `state` is null once cleared (the key's revision survives, so it only grows). */
export interface Draft {
  key: string;
  revision: number;
  state: unknown;
  updatedAt: number;
}

/** What `drafts.changed` carries: which draft, its new revision, and which page wrote it. */
export interface DraftChange {
  key: string;
  revision: number;
  writer: string;
  cleared: boolean;
}

export const DraftPutSchema = z
  .object({
    key: DraftKeySchema,
    /** The form's state, any JSON; its size is checked against DRAFT_MAX_BYTES by main. */
    state: z.unknown().refine((v) => v !== undefined && v !== null, 'a draft needs a state (use drafts.clear to empty it)'),
    writer: DraftWriterSchema,
  })
  .strict();

export type DraftPutInput = z.infer<typeof DraftPutSchema>;

export const draftsContract = {
  /** Every kept draft that is not cleared (the page reads them once, before its first paint). */
  list: call<Draft[]>()(z.object({}).strict().optional()),
  /** One draft; `state` null when there is none (revision 0 when there never was). */
  get: call<Draft>()(z.object({ key: DraftKeySchema }).strict()),
  /** Replaces a draft (last writer wins); answers its new revision. */
  put: call<{ revision: number; updatedAt: number }>()(DraftPutSchema),
  /** Empties a draft ("New"); answers the new revision and what it held, for Undo. */
  clear: call<{ revision: number; previous: unknown }>()(z.object({ key: DraftKeySchema, writer: DraftWriterSchema }).strict()),
  /** A draft changed (any window's put or clear). */
  changed: event<DraftChange>(),
};
