import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionsState } from '../../../shared/contract/connections';
import { WorkbenchFailure } from '../../../shared/contract/errors';
import { startHarness, type Harness } from './harness';

const CTX = { sessionId: 'test', signal: new AbortController().signal };

describe('ConnectionsService', () => {
  let h: Harness;
  let sandboxUrl: string;
  beforeAll(async () => {
    h = await startHarness();
    sandboxUrl = (h.app.handlers.connections.list(undefined, CTX) as ConnectionsState).profiles[0].baseUrl;
  });
  afterAll(async () => {
    await h.close();
  });

  it('starts on the built-in sandbox', () => {
    const state = h.app.handlers.connections.list(undefined, CTX) as ConnectionsState;
    expect(state.activeId).toBe('sandbox');
    expect(state.profiles[0]).toMatchObject({ id: 'sandbox', kind: 'sandbox', hasKey: true });
    expect(state.keyStorage.backend).toBe('file');
  });

  it('tests the sandbox connection by listing its models', async () => {
    const result = await h.app.handlers.connections.test({ id: 'sandbox' }, CTX);
    expect(result.ok).toBe(true);
    expect(result.models.length).toBeGreaterThanOrEqual(5);
  });

  it('saves a profile with its key in a 0600 file, never in what the renderer sees', async () => {
    const profile = await h.app.handlers.connections.save({ name: 'Staging', baseUrl: `${sandboxUrl}/`, apiKey: 'sk-secret-abc-987' }, CTX);
    expect(profile).toMatchObject({ name: 'Staging', kind: 'remote', hasKey: true, baseUrl: sandboxUrl });
    const state = h.app.handlers.connections.list(undefined, CTX) as ConnectionsState;
    expect(JSON.stringify(state)).not.toContain('sk-secret-abc-987');
    expect(h.events.some((e) => e.channel === 'connections.changed')).toBe(true);
    expect(JSON.stringify(h.events)).not.toContain('sk-secret-abc-987');
    const keyFile = join(h.dataDir, 'keys.json');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(keyFile, 'utf8')).toContain('sk-secret-abc-987');
  });

  it('keeps the stored key when a profile is saved again without one', async () => {
    const saved = await h.app.handlers.connections.save({ name: 'Keep', baseUrl: sandboxUrl, apiKey: 'sk-keep-1' }, CTX);
    const again = await h.app.handlers.connections.save({ id: saved.id, name: 'Keep renamed', baseUrl: sandboxUrl }, CTX);
    expect(again).toMatchObject({ id: saved.id, name: 'Keep renamed', hasKey: true });
  });

  it('refuses a save based on a revision another window has replaced, and overwrites when no revision is named', async () => {
    const saved = await h.app.handlers.connections.save({ name: 'Shared', baseUrl: sandboxUrl, apiKey: 'sk-shared' }, CTX);
    const theirs = await h.app.handlers.connections.save({ id: saved.id, name: 'Shared (theirs)', baseUrl: sandboxUrl, baseRevision: saved.revision }, CTX);
    expect(theirs.revision).toBeGreaterThan(saved.revision);
    const error = await Promise.resolve()
      .then(() => h.app.handlers.connections.save({ id: saved.id, name: 'Shared (mine)', baseUrl: sandboxUrl, apiKey: 'sk-mine', baseRevision: saved.revision }, CTX))
      .catch((e: unknown) => (e as WorkbenchFailure).error);
    expect(error).toMatchObject({ code: 'conflict' });
    expect((error as { message: string }).message).toContain('"Shared (theirs)" was changed in another window');
    const state = h.app.handlers.connections.list(undefined, CTX) as ConnectionsState;
    expect(state.profiles.find((p) => p.id === saved.id)).toMatchObject({ name: 'Shared (theirs)', revision: theirs.revision });
    // Nothing of the refused save was kept, its key included.
    expect(readFileSync(join(h.dataDir, 'keys.json'), 'utf8')).not.toContain('sk-mine');
    const mine = await h.app.handlers.connections.save({ id: saved.id, name: 'Shared (mine)', baseUrl: sandboxUrl }, CTX);
    expect(mine).toMatchObject({ name: 'Shared (mine)' });
    expect(mine.revision).toBeGreaterThan(theirs.revision);
  });

  it('selects a profile and falls back to the sandbox when it is removed', async () => {
    const saved = await h.app.handlers.connections.save({ name: 'Temp', baseUrl: sandboxUrl, apiKey: 'sk-temp' }, CTX);
    expect((h.app.handlers.connections.select({ id: saved.id }, CTX) as ConnectionsState).activeId).toBe(saved.id);
    const after = h.app.handlers.connections.remove({ id: saved.id }, CTX) as ConnectionsState;
    expect(after.activeId).toBe('sandbox');
    expect(after.profiles.map((p) => p.id)).not.toContain(saved.id);
  });

  it('refuses to edit or remove the sandbox', () => {
    expect(() => h.app.handlers.connections.remove({ id: 'sandbox' }, CTX)).toThrow(WorkbenchFailure);
  });

  it('fails a test with a wrong key with the service message', async () => {
    const saved = await h.app.handlers.connections.save({ name: 'Bad', baseUrl: sandboxUrl, apiKey: 'sk-not-a-real-key' }, CTX);
    await expect(h.app.handlers.connections.test({ id: saved.id }, CTX)).rejects.toMatchObject({
      error: { code: 'api_error', status: 400 },
    });
  });

  it('shows the sandbox key (local and synthetic: no secret) and port, and keeps a port set in Connections for the next launch', () => {
    const state = h.app.handlers.connections.list(undefined, CTX) as ConnectionsState;
    expect(state.sandbox.key).toBe(readFileSync(join(h.dataDir, 'sandbox', 'key'), 'utf8').trim());
    expect(sandboxUrl).toBe(`http://127.0.0.1:${state.sandbox.port}`);
    // A first launch in a fresh data folder prefers 4010 (another test may hold it: then another port).
    expect(state.sandbox).toMatchObject({ preferredPort: 4010, preferredSource: 'default', configuredPort: null });
    h.events.length = 0;
    const next = h.app.handlers.connections.setSandboxPort({ port: 4321 }, CTX) as ConnectionsState;
    expect(next.sandbox).toMatchObject({ port: state.sandbox.port, configuredPort: 4321 });
    expect(h.events).toEqual([{ channel: 'connections.changed', payload: next }]);
    const cleared = h.app.handlers.connections.setSandboxPort({ port: null }, CTX) as ConnectionsState;
    expect(cleared.sandbox.configuredPort).toBeNull();
  });
});
