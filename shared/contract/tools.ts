/**
 * Tool sets: each playground's function tools (with their saved replies) kept by main, so they
 * survive a restart and a re-run from History (a recorded request carries the tools but never the
 * saved replies, which are not sent).
 */
import { z } from 'zod';
import { call } from './define';
import type { ToolSpec } from '../tools/tool-spec';

export const TOOL_PLAYGROUNDS = ['chat', 'responses', 'messages'] as const;
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

export const toolsContract = {
  /** The playground's saved tool set (empty when none was saved). */
  load: call<ToolSpec[]>()(z.object({ playground: z.enum(TOOL_PLAYGROUNDS) }).strict()),
  /** Replaces the playground's saved tool set. */
  save: call<{ saved: number }>()(z.object({ playground: z.enum(TOOL_PLAYGROUNDS), tools: z.array(ToolSpecSchema).max(128) }).strict()),
};
