/** Files: the local record and the service's files. Videos links the files its jobs make, so app.ts builds it with the shared services; this exposes it. */
import { filesContract } from '../../../shared/families/files/contract';
import { bindOps } from '../bind';
import type { FamilyDeps, MainFamily } from '../types';

export const filesMain = {
  id: 'files',
  contract: 'files',
  create: (deps: FamilyDeps) => ({ handlers: bindOps(filesContract, deps.files) }),
} as const satisfies MainFamily;
