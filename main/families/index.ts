/**
 * The list of families in main (one module each, see README.md). app.ts builds them all with
 * buildFamilies(): each family's service, its handlers and its job kinds. Adding a family is its
 * folder plus one line here; app.ts does not change.
 */
import { chatMain } from './chat/family';
import { filesMain } from './files/family';
import { imagesMain } from './images/family';
import { speechMain } from './speech/family';
import { legacyMain } from './legacy/family';
import { messagesMain } from './messages/family';
import { modelsMain } from './models/family';
import { realtimeMain } from './realtime/family';
import { responsesMain } from './responses/family';
import { sipMain } from './sip/family';
import type { FamilyDeps, MainFamily } from './types';
import { transcriptionMain } from './transcription/family';
import { videosMain } from './videos/family';
import { voicesMain } from './voices/family';

export type { FamilyDeps, MainFamily } from './types';

export const MAIN_FAMILIES = [chatMain, responsesMain, messagesMain, legacyMain, filesMain, imagesMain, videosMain, speechMain, modelsMain, transcriptionMain, voicesMain, realtimeMain, sipMain] as const satisfies readonly MainFamily[];

type MainFamilies = (typeof MAIN_FAMILIES)[number];

/** Every family's handlers, by the contract family each answers. */
export type FamilyHandlers = { [M in MainFamilies as M['contract']]: Awaited<ReturnType<M['create']>>['handlers'] };

/** Builds every family and defines its job kinds on `deps.jobs` (before the queue resumes anything). */
export async function buildFamilies(deps: FamilyDeps): Promise<FamilyHandlers> {
  const handlers: Record<string, object> = {};
  for (const family of MAIN_FAMILIES as readonly MainFamily[]) {
    const built = await family.create(deps);
    handlers[family.contract] = built.handlers;
    built.defineJobs?.(deps.jobs);
  }
  return handlers as FamilyHandlers;
}
