/**
 * shared/audio/g711.ts as the page gets it: bundled by Vite (rolldown), not loaded by Node. The
 * bundle must build with no warning (a namespace import with a `default` fallback once gave
 * IMPORT_IS_UNDEFINED, since the package's ES entry has no default export) and decode the same
 * values as in Node.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { build, type Rollup } from 'vite';
import { decodeAlaw, decodeMulaw } from '../../../../shared/audio/g711';

const entry = fileURLToPath(new URL('../../../../shared/audio/g711.ts', import.meta.url));

describe('g711 bundled for the page', () => {
  it('builds with no warning and decodes as in Node', async () => {
    const warnings: string[] = [];
    const out = (await build({
      configFile: false,
      logLevel: 'silent',
      build: {
        write: false,
        minify: false,
        lib: { entry, formats: ['es'], fileName: 'g711' },
        rollupOptions: { onwarn: (w) => void warnings.push(`${w.code}: ${w.message.split('\n')[0]}`) },
      },
    })) as Rollup.RollupOutput[] | Rollup.RollupOutput;
    const output = (Array.isArray(out) ? out[0]! : out).output;
    expect(warnings).toEqual([]);
    const chunk = output.find((o): o is Rollup.OutputChunk => o.type === 'chunk' && o.isEntry)!;
    const bundled = (await import(`data:text/javascript;base64,${Buffer.from(chunk.code).toString('base64')}`)) as typeof import('../../../../shared/audio/g711');
    const codes = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(Array.from(bundled.decodeMulaw(codes))).toEqual(Array.from(decodeMulaw(codes)));
    expect(Array.from(bundled.decodeAlaw(codes))).toEqual(Array.from(decodeAlaw(codes)));
    expect(bundled.decodeMulaw(Uint8Array.of(0, 255))).toEqual(Int16Array.of(-32124, 0));
  }, 60_000);
});
