/** Models: the catalogue. Every family reads it, so app.ts builds it with the shared services; this exposes it. */
import { modelsContract } from '../../../shared/families/models/contract';
import { bindOps } from '../bind';
import type { FamilyDeps, MainFamily } from '../types';

export const modelsMain = {
  id: 'models',
  contract: 'models',
  create: (deps: FamilyDeps) => ({ handlers: bindOps(modelsContract, deps.models) }),
} as const satisfies MainFamily;
