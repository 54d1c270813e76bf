/**
 * An ApiClient on a fresh local server for each test, closed again after it: the setup the
 * api tests share. Retry waits are recorded instead of slept, so retries cost no time.
 */
import { afterEach } from 'vitest';
import { ApiClient, type ApiClientOptions } from '../../../../main/api/client';
import { startServer, type LocalServer, type Responder } from './local-server';

export interface LocalClient {
  server: LocalServer;
  client: ApiClient;
  /** Every retry wait the client asked for, in ms. */
  sleeps: number[];
}

/**
 * Registers an afterEach that disposes the client and closes the server, and returns
 * `setup(respond, options?)`, which starts a server answering with `respond` and a client on it.
 * `defaults` (then `options`) override the client's options (key 'sk-test-key' unless given).
 */
export function useLocalClient(defaults: Partial<ApiClientOptions> = {}): (respond: Responder, options?: Partial<ApiClientOptions>) => Promise<LocalClient> {
  let server: LocalServer | null = null;
  let client: ApiClient | null = null;

  afterEach(async () => {
    await client?.dispose();
    await server?.close();
    client = null;
    server = null;
  });

  return async (respond, options = {}) => {
    const started = await startServer(respond);
    server = started;
    const sleeps: number[] = [];
    const made = new ApiClient({
      baseUrl: started.baseUrl,
      apiKey: 'sk-test-key',
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      ...defaults,
      ...options,
    });
    client = made;
    return { server: started, client: made, sleeps };
  };
}
