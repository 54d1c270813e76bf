/**
 * A run's id. A module of its own (a leaf) because the families' contracts use it, the families'
 * list imports those contracts (shared/contract/index.ts derives the contract from FAMILIES), and
 * history.ts imports the list (its endpoint enum): taking it from history.ts would be a cycle.
 */
import { z } from 'zod';

export const RunIdSchema = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/);
