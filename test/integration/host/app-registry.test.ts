/**
 * The built app's handler map (createApp), as the shells hand it to the host: every operation of
 * the contract is answered, and an input its schema refuses comes back as a typed invalid_input
 * error without ever reaching a handler (main validates every input, whatever the page sent).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../../main/app';
import type { AnyHandler } from '../../../main/host/registry';
import type { HandlersFor } from '../../../main/host/handlers';
import { createHost, type Host, type HostSession } from '../../../main/host/host';
import { HOST_CHANNELS, operationChannels } from '../../../main/host/registry';
import { createFileKeyStore } from '../../../main/store/key-file';
import { contract, type WorkbenchContract } from '../../../shared/contract/index';
import type { CallReply } from '../../../shared/contract/protocol';

/** Inputs no operation's schema takes: not an object, and an object with a field none declares. */
const REFUSED_INPUTS: unknown[] = [42, { unexpectedField: true }];

const session: HostSession = { id: 'registry-test', sendChunk: () => undefined, sendEvent: () => undefined };

/** The app's handlers, each noting its channel in `reached` before it runs. */
function recording(handlers: HandlersFor<WorkbenchContract>, reached: string[]): HandlersFor<WorkbenchContract> {
  const families = Object.entries(handlers as unknown as Record<string, Record<string, AnyHandler>>).map(([family, ops]) => [
    family,
    Object.fromEntries(
      Object.entries(ops).map(([method, handler]) => [
        method,
        (input: unknown, ctx: never) => {
          reached.push(`${family}.${method}`);
          return handler(input, ctx);
        },
      ]),
    ),
  ]);
  return Object.fromEntries(families) as unknown as HandlersFor<WorkbenchContract>;
}

describe("the built app's handler registry", () => {
  let dataDir: string;
  let app: App;
  let host: Host;
  const reached: string[] = [];
  let streamIds = 0;

  const send = (channel: string, kind: 'call' | 'stream', input: unknown): Promise<CallReply> =>
    kind === 'call' ? host.call(session, channel, input) : host.stream(session, channel, input, `registry-${++streamIds}`);

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'wb-registry-'));
    app = await createApp({
      dataDir,
      shell: 'browser',
      keyStore: createFileKeyStore(join(dataDir, 'keys.json')),
      emit: () => undefined,
      log: () => undefined,
      version: 'registry-test',
    });
    host = createHost({ contract, handlers: recording(app.handlers, reached) });
    host.attach(session);
  });
  afterAll(async () => {
    host?.dispose();
    await app?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const channels = operationChannels(contract).filter((op) => !HOST_CHANNELS.has(op.channel));

  it('answers every operation of the contract, with a valid input reaching its handler', async () => {
    expect(channels.length).toBeGreaterThan(50);
    // What the contract declares is what the app wires: no family left out, none extra.
    // (A family with no operations of its own, e.g. realtime, whose calls are live sessions, is wired with none.)
    const declared = Object.keys(contract).filter((family) => channels.some((op) => op.channel.startsWith(`${family}.`)) || Object.keys((contract as Record<string, object>)[family]!).length === 0);
    expect(Object.keys(app.handlers).sort()).toEqual(declared.sort());

    reached.length = 0;
    const info = await host.call(session, 'app.info', undefined);
    expect(info).toMatchObject({ ok: true, value: { version: 'registry-test', shell: 'browser' } });
    expect(reached).toEqual(['app.info']);
  });

  it.each(channels.map((op) => [op.channel, op.kind] as const))('%s refuses an input its schema does not take, before its handler runs', async (channel, kind) => {
    reached.length = 0;
    for (const input of REFUSED_INPUTS) {
      const reply = await send(channel, kind, input);
      expect(reply.ok).toBe(false);
      if (reply.ok) continue;
      expect(reply.error.code).toBe('invalid_input');
      expect(reply.error.message).toMatch(new RegExp(`^Invalid input for ${channel.replace('.', '\\.')}: `));
      expect(reply.error.issues?.length).toBeGreaterThan(0);
    }
    expect(reached).toEqual([]);
  });
});
