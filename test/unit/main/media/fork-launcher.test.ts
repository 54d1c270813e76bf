// Browser mode's media process is forked with the media process's V8 flags (v8-flags.ts): a small
// young generation, so its scavenges stay short. Checked in the child itself: its execArgv and the
// young generation V8 actually gave it (a caller's later flag wins: benchmarks put the default back).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { forkLauncher } from '../../../../main/media/fork-launcher';
import { MEDIA_V8_FLAGS } from '../../../../main/media/v8-flags';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Forks a probe entry through the launcher; what the child says of itself. */
async function probe(execArgv: string[] = []): Promise<{ execArgv: string[]; newSpaceBytes: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'fork-launcher-'));
  dirs.push(dir);
  const entry = join(dir, 'probe.mjs');
  writeFileSync(entry, `import v8 from 'node:v8';
const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
// Grow the young generation to its most: young objects that survive scavenges make V8 widen it.
const kept = [];
let after = young;
for (let round = 0; round < 40; round++) {
  for (let i = 0; i < 20000; i++) kept.push({ i, round });
  const now = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  if (now.space_size > after.space_size) after = now;
}
const keep = kept.length;
process.send({ execArgv: process.execArgv, newSpaceBytes: Math.max(young.space_size, after.space_size), keep }, () => process.exit(0));
`);
  const child = forkLauncher({ entry, execArgv, log: () => undefined })();
  return new Promise((resolve) => child.onMessage((m) => resolve(m as { execArgv: string[]; newSpaceBytes: number })));
}

describe('media process fork: V8 flags', () => {
  it('starts the child with a 1 MB young generation', async () => {
    const got = await probe();
    expect(got.execArgv.slice(0, MEDIA_V8_FLAGS.length)).toEqual([...MEDIA_V8_FLAGS]);
    // Semi-spaces of 1 MB: the new space (both halves' usable part) stays within 2 MB, after churn.
    expect(got.newSpaceBytes).toBeLessThanOrEqual(2 * 1024 * 1024);
  });

  it('a caller\'s later flag wins (a benchmark measuring V8\'s default)', async () => {
    const got = await probe(['--max-semi-space-size=16']);
    expect(got.execArgv).toEqual([...MEDIA_V8_FLAGS, '--max-semi-space-size=16']);
    expect(got.newSpaceBytes).toBeGreaterThan(2 * 1024 * 1024);
  });
});
