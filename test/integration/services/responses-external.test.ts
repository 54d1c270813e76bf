/**
 * Responses made outside the app (another client, same account): opened here by id they are
 * recorded, added to the local chain tree with their links, and then browsable offline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResponseTree } from '../../../shared/families/responses/contract';
import { choicesOf } from '../../../shared/text-output';
import { startSandbox, type SandboxServer } from '../../../main/sandbox/index';
import { startHarness, type Harness } from './harness';

const KEY = 'sk-external-client-01';
const CTX = { sessionId: 'test', signal: new AbortController().signal };
let sandbox: SandboxServer;
let h: Harness;
let connectionId: string;

/** What another program does: POST /v1/responses with its own HTTP client. */
async function createElsewhere(body: Record<string, unknown>): Promise<{ id: string; text: string }> {
  const res = await fetch(`${sandbox.url}/v1/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'svc-4', ...body }),
  });
  expect(res.status).toBe(200);
  const json = (await res.json()) as { id: string };
  return { id: json.id, text: choicesOf('responses', json)[0]!.content };
}

beforeAll(async () => {
  sandbox = await startSandbox({ tokenDelayMs: 0, keys: [KEY] });
  h = await startHarness();
  connectionId = (await h.app.handlers.connections.save({ name: 'Team account', baseUrl: sandbox.url, apiKey: KEY }, CTX)).id;
});
afterAll(async () => {
  await h.close();
  await sandbox.close();
});

describe('responses made outside the app', () => {
  it('opens them by id, links the chain through previous_response_id, and shows them offline', async () => {
    const first = await createElsewhere({ input: 'Name a famous bridge' });
    const second = await createElsewhere({ input: 'How long is it?', previous_response_id: first.id });

    const openedSecond = await h.app.handlers.responses.retrieve({ connectionId, id: second.id }, CTX);
    expect(openedSecond.endpoint).toBe('responses.retrieve');
    expect(choicesOf(openedSecond.endpoint, openedSecond.output)[0]!.content).toBe(second.text);
    await h.app.handlers.responses.retrieve({ connectionId, id: first.id }, CTX);

    const tree = (await h.app.handlers.responses.tree({ connectionId, id: second.id }, CTX)) as ResponseTree;
    expect(tree.rootId).toBe(first.id);
    const byId = new Map(tree.nodes.map((n) => [n.id, n]));
    expect(byId.get(second.id)).toMatchObject({ parentId: first.id, serverState: 'stored', kind: 'response' });
    expect(byId.get(second.id)!.expiresAt).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);

    // Offline: the service is gone, the chain and the recorded answer are still here.
    await sandbox.close();
    const again = (await h.app.handlers.responses.tree({ connectionId, id: first.id }, CTX)) as ResponseTree;
    expect(again.nodes.map((n) => n.id)).toEqual([first.id, second.id]);
    const run = await h.app.handlers.history.get({ id: byId.get(second.id)!.runId! }, CTX);
    expect(choicesOf(run.endpoint, run.output)[0]!.content).toBe(second.text);
  });
});
