/**
 * The whole contract: every operation the renderer may ask of main, and every event main pushes.
 * Channel names are derived (`family.method`); see define.ts. The app's own families are listed
 * here; the API families' parts come from FAMILIES (each family's `contract: { key, ops }`), so
 * adding a family never edits this file.
 */
import { appContract, opsContract, streamsContract } from './app';
import { audioContract } from './audio';
import { connectionsContract } from './connections';
import { draftsContract } from './drafts';
import { galleryContract } from './gallery';
import { historyContract } from './history';
import { mediaContract } from './media';
import { jobsContract } from './jobs';
import { liveContract } from './live';
import { toolsContract } from './tools';
import { userFilesContract } from './user-files';
import { FAMILIES } from '../families';

/** The app's own contract families (not an API family's). */
const appFamilies = {
  app: appContract,
  streams: streamsContract,
  ops: opsContract,
  connections: connectionsContract,
  history: historyContract,
  tools: toolsContract,
  media: mediaContract,
  audio: audioContract,
  jobs: jobsContract,
  userFiles: userFilesContract,
  drafts: draftsContract,
  gallery: galleryContract,
  live: liveContract,
} as const;

type Families = (typeof FAMILIES)[number];

/** The API families' contract families, by the key each declares (`legacy` → `completions`). */
type FamilyContracts = { [F in Families as F['contract']['key']]: F['contract']['ops'] };

// A family's key that is one of the app's would silently replace it: this stops the type check.
type Clash = keyof FamilyContracts & keyof typeof appFamilies;
const noClash: [Clash] extends [never] ? true : Clash = true;
void noClash;

const familyContracts = Object.fromEntries(FAMILIES.map((f) => [f.contract.key, f.contract.ops])) as FamilyContracts;

export const contract = { ...appFamilies, ...familyContracts };

export type WorkbenchContract = typeof contract;

export * from './define';
export * from './errors';
export * from './bytes';
export type { ApiFor, CallOptions, SessionHandle, StreamHandle, WorkbenchApi } from './api';
