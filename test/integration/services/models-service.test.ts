import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../main/sandbox';
import type { Catalogue } from '../../../shared/families/models/contract';
import { startHarness, type Harness } from './harness';

const CTX = { sessionId: 'test', signal: new AbortController().signal };

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
    // `realtime`: the realtime voice models, only in the basic listing (with their token prices).
    expect(kinds).toEqual(new Set(['language', 'image', 'video', 'realtime']));
    expect(catalogue.entries.filter((e) => e.kind === 'realtime').map((e) => e.id)).toContain('svc-voice-latest');
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

  it('fetches a fresh catalogue after the profile is edited, not the old one from the cache', async () => {
    const other = await startSandbox({ keys: ['sk-other-sandbox-key'], tokenDelayMs: 0 });
    try {
      const profile = await h.app.handlers.connections.save({ name: 'Other', baseUrl: other.url, apiKey: 'sk-other-sandbox-key' }, CTX);
      const first = await h.app.handlers.models.catalogue({ connectionId: profile.id }, CTX);
      expect(first.isSandbox).toBe(false);
      expect(await h.app.handlers.models.catalogue({ connectionId: profile.id }, CTX)).toBe(first);
      await h.app.handlers.connections.save({ id: profile.id, name: 'Other', baseUrl: `${other.url}/v1` }, CTX);
      const afterEdit = await h.app.handlers.models.catalogue({ connectionId: profile.id }, CTX);
      expect(afterEdit).not.toBe(first);
      expect(afterEdit.entries).toEqual(first.entries);
    } finally {
      await other.close();
    }
  });
});
