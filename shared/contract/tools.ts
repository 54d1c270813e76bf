/**
 * Tool sets: each playground's function tools (with their saved replies) kept by main, so they
 * survive a restart and a re-run from History (a recorded request carries the tools but never the
 * saved replies, which are not sent).
 */
import { z } from 'zod';
import { call, event } from './define';
import type { ToolSpec } from '../tools/tool-spec';

export const TOOL_PLAYGROUNDS = ['chat', 'responses', 'messages', 'realtime'] as const;
export type ToolPlayground = (typeof TOOL_PLAYGROUNDS)[number];

/**
 * Structure only, and lenient on what the editor allows mid-edit (a name being typed, an empty
 * schema): the playground's own checks decide what can be sent.
 */
export const ToolSpecSchema = z
  .object({
    name: z.string().max(256),
    description: z.string().max(10_000),
    parameters: z.record(z.string(), z.unknown()),
    savedReply: z.string().max(200_000).optional(),
    strict: z.boolean().optional(),
  })
  .strict();

/**
 * A playground's saved set and its revision: 0 before the first save, one more on every save.
 * Windows save against the revision they last saw (optimistic concurrency).
 */
export interface ToolSetState {
  playground: ToolPlayground;
  revision: number;
  tools: ToolSpec[];
}

export const toolsContract = {
  /** The playground's saved tool set (empty, revision 0, when none was saved). */
  load: call<ToolSetState>()(z.object({ playground: z.enum(TOOL_PLAYGROUNDS) }).strict()),
  /**
   * Saves the playground's tool set, edited from `baseRevision`. When another window saved since,
   * the two are merged tool by tool (the answer is the merged set); a tool both changed differently
   * is refused as a `conflict` error naming it (in `issues`), and nothing is saved.
   */
  save: call<ToolSetState>()(
    z
      .object({ playground: z.enum(TOOL_PLAYGROUNDS), baseRevision: z.number().int().min(0), tools: z.array(ToolSpecSchema).max(128) })
      .strict(),
  ),
  /** A playground's set changed (any window's save): every window follows it. */
  changed: event<ToolSetState>(),
};
