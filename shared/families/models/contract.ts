/** The model catalogue: one list merged from the four listings of the service. */
import { z } from 'zod';
import { call } from '../../contract/define';
import type { TokenPrices } from '../../cost';

/** `realtime`: a voice model of `/v1/realtime` (only the basic listing has it; known by the spec's list of realtime models). */
export type ModelKind = 'language' | 'image' | 'video' | 'realtime' | 'other';

export interface CatalogueEntry {
  id: string;
  kind: ModelKind;
  aliases: string[];
  ownedBy: string;
  created: number;
  version: string | null;
  inputModalities: string[];
  outputModalities: string[];
  contextLength: number | null;
  /** Raw price fields in the service's units (cents per 100M tokens; cents per image). */
  prices: TokenPrices & { image_price?: number | null; search_price?: number | null };
}

/** A listing that could not be used (whole or in part): which one (its path) and why. */
export interface ListingNote {
  listing: string;
  message: string;
}

export interface Catalogue {
  connectionId: string;
  isSandbox: boolean;
  fetchedAt: number;
  entries: CatalogueEntry[];
  /** Listings left out (wrong shape, entries without id, failed): the Models view shows them. Absent when all were read. */
  notes?: ListingNote[];
}

export const modelsContract = {
  catalogue: call<Catalogue>()(
    z.object({ connectionId: z.string().max(64).optional(), refresh: z.boolean().optional() }).strict().optional(),
  ),
};
