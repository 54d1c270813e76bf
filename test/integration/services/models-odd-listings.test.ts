/**
 * A service whose model listings have other shapes (issue 8, defect 6), on loopback: the
 * catalogue shows what parsed and says which listing did not and why, instead of failing whole.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startServer, type LocalServer } from '../../unit/main/api/local-server';
import { startHarness, type Harness } from './harness';

const CTX = { sessionId: 'test', signal: new AbortController().signal };

type Listing = { status: number; body: unknown };
let answers: Record<string, Listing> = {};
let h: Harness;
let fake: LocalServer;

const model = (id: string): Record<string, unknown> => ({ id, object: 'model', created: 1, owned_by: 'svc', aliases: [], context_length: 8192, prompt_text_token_price: 100, completion_text_token_price: 400 });
const typed = (id: string): Record<string, unknown> => ({ id, object: 'model', created: 1, owned_by: 'svc', version: '1', aliases: [`${id}-latest`], input_modalities: ['text'], output_modalities: ['text'] });

beforeAll(async () => {
  fake = await startServer((req, res) => {
    const answer = answers[req.url.split('?')[0]!] ?? { status: 404, body: { error: { message: 'no such listing' } } };
    sendJson(res, answer.status, answer.body);
  });
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
  await fake.close();
});

async function catalogueOf(listings: Record<string, Listing>) {
  answers = listings;
  const profile = await h.app.handlers.connections.save({ name: `Odd ${Math.random()}`, baseUrl: fake.baseUrl, apiKey: 'sk-odd-listings-1' }, CTX);
  return h.app.handlers.models.catalogue({ connectionId: profile.id, refresh: true }, CTX);
}

describe('odd model listings', () => {
  it('keeps the basic listing when a typed one answers {object, data} where {models} is expected', async () => {
    const catalogue = await catalogueOf({
      '/v1/models': { status: 200, body: { object: 'list', data: [model('svc-4'), model('svc-mini')] } },
      '/v1/language-models': { status: 200, body: { object: 'list', data: [typed('svc-4')] } },
    });
    expect(catalogue.entries.map((e) => e.id)).toEqual(['svc-4', 'svc-mini']);
    expect(catalogue.notes).toEqual([
      { listing: '/v1/language-models', message: '/v1/language-models answered with {object, data} where {models} was expected; none of its models are shown.' },
    ]);
  });

  it('shows the typed listings when the basic one has another shape, and skips entries without an id', async () => {
    const catalogue = await catalogueOf({
      '/v1/models': { status: 200, body: { models: [model('svc-4')] } },
      '/v1/language-models': { status: 200, body: { models: [typed('svc-4'), { object: 'model' }, 'nonsense', { ...typed('svc-x'), aliases: 'not-a-list', created: 'yesterday' }] } },
    });
    expect(catalogue.entries.map((e) => [e.id, e.kind, e.aliases, e.created])).toEqual([
      ['svc-4', 'language', ['svc-4-latest'], 1],
      ['svc-x', 'language', [], 0],
    ]);
    expect(catalogue.notes?.map((n) => n.message)).toEqual([
      '/v1/models answered with {models} where {data} was expected; none of its models are shown.',
      '/v1/language-models: 2 of 4 entries have no id and are not shown.',
    ]);
  });

  it('says which typed listing failed (a 404 is a service without it: no note)', async () => {
    const catalogue = await catalogueOf({
      '/v1/models': { status: 200, body: { object: 'list', data: [model('svc-4')] } },
      '/v1/image-generation-models': { status: 500, body: { error: { message: 'image catalogue offline' } } },
    });
    expect(catalogue.entries.map((e) => e.id)).toEqual(['svc-4']);
    expect(catalogue.notes?.map((n) => n.listing)).toEqual(['/v1/image-generation-models']);
    expect(catalogue.notes?.[0]?.message).toContain('image catalogue offline');
  });

  it('still fails with the basic listing\'s error when nothing could be read', async () => {
    await expect(
      catalogueOf({ '/v1/models': { status: 401, body: { error: { message: 'bad key' } } } }),
    ).rejects.toMatchObject({ error: { code: 'api_error', status: 401 } });
  });
});
