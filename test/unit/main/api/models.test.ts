import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../../main/api/client';
import {
  getModel,
  listImageGenerationModels,
  listLanguageModels,
  listModels,
  listVideoGenerationModels,
} from '../../../../main/api/models';
import { sendJson, startServer, type LocalServer } from './local-server';

let server: LocalServer | null = null;
let client: ApiClient | null = null;

afterEach(async () => {
  await client?.dispose();
  await server?.close();
});

describe('models', () => {
  it.each([
    ['listModels()', (c: ApiClient) => listModels(c), '/v1/models'],
    ['getModel()', (c: ApiClient) => getModel(c, 'svc 3/mini'), '/v1/models/svc%203%2Fmini'],
    ['listLanguageModels()', (c: ApiClient) => listLanguageModels(c), '/v1/language-models'],
    ['listImageGenerationModels()', (c: ApiClient) => listImageGenerationModels(c), '/v1/image-generation-models'],
    ['listVideoGenerationModels()', (c: ApiClient) => listVideoGenerationModels(c), '/v1/video-generation-models'],
  ])('%s GETs %s and returns its body', async (_name, call, path) => {
    server = await startServer((req, res) => sendJson(res, 200, { path: req.url }));
    client = new ApiClient({ baseUrl: server.baseUrl, apiKey: 'k-123456' });
    const result = await call(client);
    expect(result).toMatchObject({ ok: true, value: { path } });
    expect(server.received[0].method).toBe('GET');
  });
});
