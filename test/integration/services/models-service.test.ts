import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalogue } from '../../../shared/contract/models';
import { startHarness, type Harness } from './harness';

const CTX = { sessionId: 'test' };

describe('ModelsService against the sandbox', () => {
  let h: Harness;
  let catalogue: Catalogue;
  beforeAll(async () => {
    h = await startHarness();
    catalogue = await h.app.handlers.models.catalogue(undefined, CTX);
  });
  afterAll(async () => {
    await h.close();
  });

  it('merges the four listings into one catalogue labelled as the sandbox', () => {
    expect(catalogue.isSandbox).toBe(true);
    const kinds = new Set(catalogue.entries.map((e) => e.kind));
    expect(kinds).toEqual(new Set(['language', 'image', 'video']));
    expect(catalogue.entries.filter((e) => e.kind === 'language').length).toBeGreaterThanOrEqual(3);
  });

  it('carries prices, tiers, aliases and modalities for language models', () => {
    const withTier = catalogue.entries.find((e) => e.kind === 'language' && (e.prices.long_context_threshold ?? 0) > 0);
    expect(withTier).toBeDefined();
    expect(withTier!.prices.prompt_text_token_price).toBeGreaterThan(0);
    expect(withTier!.prices.completion_text_token_price).toBeGreaterThan(0);
    expect(withTier!.inputModalities).toContain('text');
    expect(catalogue.entries.some((e) => e.aliases.length > 0)).toBe(true);
  });

  it('gives image models a per-image price', () => {
    const image = catalogue.entries.find((e) => e.kind === 'image');
    expect(image?.prices.image_price).toBeGreaterThan(0);
  });

  it('serves the cached catalogue until asked to refresh', async () => {
    const again = await h.app.handlers.models.catalogue(undefined, CTX);
    expect(again.fetchedAt).toBe(catalogue.fetchedAt);
    const fresh = await h.app.handlers.models.catalogue({ refresh: true }, CTX);
    expect(fresh.entries).toEqual(catalogue.entries);
  });
});
