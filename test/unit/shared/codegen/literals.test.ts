import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pyLiteral } from '../../../../shared/codegen/literals';

describe('codegen/literals', () => {
  describe('pyLiteral()', () => {
    it('writes JSON values that Python reads back as the same values', () => {
      const values = fc.sample(fc.jsonValue({ maxDepth: 3 }), 60);
      values.push({ s: 'quote " backslash \\ newline \n tab \t unicode é ☃ \u2028', t: true, f: false, n: null, x: -1.5e-7 });
      // One Python process reads every literal and prints each as JSON.
      const script = `import json\nvalues = [\n${values.map((v) => pyLiteral(v, '    ')).join(',\n')}\n]\nprint(json.dumps(values))`;
      const out = execFileSync('python3', ['-c', script]).toString();
      // JSON -0 and 0 are equal values; normalise through JSON on both sides.
      expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(values)));
    });
  });
});
