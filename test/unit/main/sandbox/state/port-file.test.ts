import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../../../../main/sandbox';
import { rememberedPort } from '../../../../../main/sandbox/state/port-file';

describe('sandbox port kept in its state folder', () => {
  let dir: string;
  let sandbox: SandboxServer | undefined;
  let squatter: Server | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sb-port-'));
  });
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
    await new Promise((resolve) => (squatter ? squatter.close(resolve) : resolve(undefined)));
    squatter = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('listens on the same port on the next launch, so URLs it handed out (public file links) still work', async () => {
    sandbox = await startSandbox({ stateDir: dir, keys: ['sk-a'], log: () => undefined });
    const first = sandbox.port;
    expect(readFileSync(join(dir, 'port'), 'utf8').trim()).toBe(String(first));
    await sandbox.close();
    sandbox = await startSandbox({ stateDir: dir, keys: ['sk-a'], log: () => undefined });
    expect(sandbox.port).toBe(first);
  });

  it('takes another port when the remembered one is taken, and remembers that one', async () => {
    squatter = createServer();
    await new Promise<void>((resolve) => squatter!.listen(0, '127.0.0.1', resolve));
    const taken = (squatter.address() as { port: number }).port;
    writeFileSync(join(dir, 'port'), `${taken}\n`);
    const lines: string[] = [];
    sandbox = await startSandbox({ stateDir: dir, keys: ['sk-a'], log: (l) => lines.push(l) });
    expect(sandbox.port).not.toBe(taken);
    expect(rememberedPort(dir)).toBe(sandbox.port);
    expect(lines.join('\n')).toContain(`port ${taken} (used last time) is taken`);
  });

  it('ignores a damaged port file, and an explicit port is neither replaced nor remembered', async () => {
    writeFileSync(join(dir, 'port'), 'not a port\n');
    expect(rememberedPort(dir)).toBe(0);
    sandbox = await startSandbox({ stateDir: dir, keys: ['sk-a'], port: 0, log: () => undefined });
    expect(readFileSync(join(dir, 'port'), 'utf8')).toBe('not a port\n');
  });
});

describe('sandbox preferred port', () => {
  let squatter: Server | undefined;
  let sandbox: SandboxServer | undefined;
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
    await new Promise((resolve) => (squatter ? squatter.close(resolve) : resolve(undefined)));
    squatter = undefined;
  });

  it('listens on the preferred port when it is free, and on another (saying which it wanted) when it is taken', async () => {
    squatter = createServer();
    await new Promise<void>((resolve) => squatter!.listen(0, '127.0.0.1', resolve));
    const taken = (squatter.address() as { port: number }).port;
    const lines: string[] = [];
    sandbox = await startSandbox({ preferredPort: taken, keys: ['sk-a'], log: (l) => lines.push(l) });
    expect(sandbox.port).not.toBe(taken);
    expect(sandbox.preferredPort).toBe(taken);
    expect(lines.join('\n')).toContain(`port ${taken} (preferred) is taken`);
    const free = sandbox.port;
    await sandbox.close();
    sandbox = await startSandbox({ preferredPort: free, keys: ['sk-a'], log: () => undefined });
    expect([sandbox.port, sandbox.preferredPort]).toEqual([free, free]);
  });
});
