import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { npmScripts, runParallel } from '../../../scripts/parallel.mjs';

/** A node one-liner as a command. */
const node = (name: string, code: string) => ({ name, file: process.execPath, args: ['-e', code] });

describe('parallel (npm test runs typecheck, lint and the build at once)', () => {
  it('runs the commands at the same time: the first waits for a file the second writes', async () => {
    const out: string[] = [];
    // Run one after the other, "waits" would time out before "writes" began.
    const marker = `${process.env.TMPDIR ?? '/tmp'}/parallel-test-${process.pid}-${Date.now()}`;
    const results = await runParallel(
      [
        node('waits', `const fs=require('fs');const t=Date.now();(function look(){if(fs.existsSync(${JSON.stringify(marker)})){fs.rmSync(${JSON.stringify(marker)});console.log('saw it');return;}if(Date.now()-t>20000)process.exit(3);setTimeout(look,20);})()`),
        node('writes', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x');console.log('wrote it')`),
      ],
      { write: (text) => out.push(text) },
    ).finally(() => rmSync(marker, { force: true }));
    expect(results.map((r) => [r.name, r.code])).toEqual([
      ['waits', 0],
      ['writes', 0],
    ]);
    expect(out.join('')).toContain('saw it');
  });

  it('prints each output whole, under its name, and reports every failure without stopping the others', async () => {
    const out: string[] = [];
    const results = await runParallel(
      [
        node('fails', `console.log('one');console.error('two');process.exit(4)`),
        node('passes', `setTimeout(()=>console.log('three'),200)`),
      ],
      { write: (text) => out.push(text) },
    );
    expect(results.map((r) => [r.name, r.code])).toEqual([
      ['fails', 4],
      ['passes', 0],
    ]);
    const fails = out.find((t) => t.includes('fails'))!;
    expect(fails).toMatch(/── fails: FAILED \(exit code 4\) in [\d.]+ s ──\none\ntwo\n/);
    expect(out.find((t) => t.includes('passes'))).toMatch(/── passes: ok in [\d.]+ s ──\nthree\n/);
  });

  it('says when a command cannot start at all', async () => {
    const out: string[] = [];
    const [result] = await runParallel([{ name: 'missing', file: '/nonexistent/tool', args: [] }], { write: (text) => out.push(text) });
    expect(result!.code).not.toBe(0);
    expect(out.join('')).toMatch(/── missing: FAILED \(.*ENOENT.*\)/);
  });

  it('runs npm scripts by name', () => {
    expect(npmScripts(['typecheck', 'lint'], 'npm')).toEqual([
      { name: 'typecheck', file: 'npm', args: ['run', '--silent', 'typecheck'] },
      { name: 'lint', file: 'npm', args: ['run', '--silent', 'lint'] },
    ]);
  });
});
