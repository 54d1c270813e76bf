#!/usr/bin/env node
// Enforces the layer rules of DESIGN.md ("The house") with dependency-cruiser, on imports it
// resolves the way the build does (TypeScript paths, .vue files, type-only imports, dynamic
// imports). The rules live in .dependency-cruiser.cjs. Prints `file -> target: rule` for each
// violation and exits 1 when there is any. Tests are not checked.
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const SOURCE_DIRS = ['shared', 'main', 'preload', 'renderer'];
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Every violation of the rules in `configFile` among the sources under `root`:
 * `{ from, to, rule, comment }`, paths relative to `root`.
 */
export async function checkLayers(root, configFile = join(REPO, '.dependency-cruiser.cjs')) {
  const options = await extractDepcruiseOptions(configFile);
  const tsConfigFile = join(root, options.tsConfig?.fileName ?? 'tsconfig.json');
  const hasTsConfig = existsSync(tsConfigFile);
  const dirs = SOURCE_DIRS.filter((d) => existsSync(join(root, d)));
  const comments = new Map(options.ruleSet.forbidden.map((r) => [r.name, r.comment ?? r.name]));
  const previous = process.cwd();
  // dependency-cruiser resolves relative to the working directory; baseDir alone does not move that.
  process.chdir(root);
  try {
    const result = await cruise(
      dirs,
      { ...options, tsConfig: hasTsConfig ? { fileName: tsConfigFile } : undefined, outputType: 'json' },
      {},
      { tsConfig: hasTsConfig ? extractTSConfig(tsConfigFile) : undefined },
    );
    const { summary } = JSON.parse(result.output);
    return summary.violations.map((v) => ({ from: v.from, to: v.unresolvedTo ?? v.to, rule: v.rule.name, comment: comments.get(v.rule.name) }));
  } finally {
    process.chdir(previous);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const violations = await checkLayers(REPO);
  for (const v of violations) process.stderr.write(`${v.from} -> ${v.to}: ${v.comment} [${v.rule}]\n`);
  if (violations.length > 0) {
    process.stderr.write(`check-layers: ${violations.length} violation(s); see DESIGN.md "The house" and .dependency-cruiser.cjs.\n`);
    process.exit(1);
  }
  process.stderr.write(`check-layers: ok (${relative(process.cwd(), REPO) || '.'})\n`);
}
