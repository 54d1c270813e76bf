#!/usr/bin/env node
// Enforces the layer rules of DESIGN.md on import statements (VS Code's "layers" check, in small):
// each source file may import only what its folder's runtime allows. Prints `file:line: rule`
// for each violation and exits 1 when there is any. Tests are not checked.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE_DIRS = ['shared', 'main', 'preload', 'renderer'];
const EXTENSIONS = /\.(ts|mts|cts|tsx|vue|js|mjs)$/;
const BUILTINS = new Set(builtinModules);

/**
 * Replaces comments with spaces (keeping newlines), so commented-out imports don't count; so are
 * string literals with whitespace in them (code written as text, e.g. a generated snippet's
 * `import OpenAI from "openai"`). A module specifier never contains whitespace, so those stay.
 */
export function stripComments(source) {
  let out = '';
  let i = 0;
  let quote = null;
  let literalStart = 0;
  while (i < source.length) {
    const c = source[i];
    const next = source[i + 1];
    if (quote) {
      out += c;
      if (c === '\\') {
        out += next ?? '';
        i += 2;
        continue;
      }
      if (c === quote) {
        quote = null;
        const body = out.slice(literalStart, -1);
        if (/\s/.test(body)) out = out.slice(0, literalStart) + body.replace(/[^\n]/g, ' ') + c;
      }
      i++;
    } else if (c === '/' && next === '/') {
      while (i < source.length && source[i] !== '\n') (out += ' '), i++;
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end < 0 ? source.length : end + 2;
      out += source.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else {
      if (c === '"' || c === "'" || c === '`') {
        quote = c;
        literalStart = out.length + 1;
      }
      out += c;
      i++;
    }
  }
  return out;
}

const IMPORT_PATTERNS = [
  /\bimport\s+(?:type\s+)?[\w*{}\s,$]*?\s*from\s*(['"])([^'"]+)\1/g,
  /\bimport\s*(['"])([^'"]+)\1/g,
  /\bexport\s+(?:type\s+)?(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s*from\s*(['"])([^'"]+)\1/g,
  /\bimport\s*\(\s*(['"])([^'"]+)\1\s*\)/g,
  /\brequire\s*\(\s*(['"])([^'"]+)\1\s*\)/g,
];

/** Every module specifier imported by `source`, with its 1-based line. */
export function findImports(source) {
  const code = stripComments(source);
  const found = new Map();
  for (const pattern of IMPORT_PATTERNS) {
    for (const m of code.matchAll(pattern)) {
      const at = m.index + m[0].lastIndexOf(m[2]);
      if (!found.has(at)) found.set(at, { specifier: m[2], line: code.slice(0, at).split('\n').length });
    }
  }
  return [...found.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v);
}

/** What a specifier points at: a repo path, a Node builtin, or an npm package. */
export function classify(fileRel, specifier) {
  if (specifier.startsWith('.')) return { kind: 'path', path: posix.normalize(posix.join(posix.dirname(fileRel), specifier)) };
  if (specifier.startsWith('@/')) return { kind: 'path', path: posix.join('renderer/src', specifier.slice(2)) };
  if (specifier.startsWith('@shared/')) return { kind: 'path', path: posix.join('shared', specifier.slice(8)) };
  if (specifier.startsWith('node:') || BUILTINS.has(specifier.split('/')[0])) return { kind: 'builtin', name: specifier };
  const parts = specifier.split('/');
  return { kind: 'package', name: specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0] };
}

const under = (path, dir) => path === dir || path.startsWith(`${dir}/`);

/** The rule `fileRel` breaks by importing `target`, or null. */
export function ruleBroken(fileRel, target) {
  const isPath = target.kind === 'path';
  const path = isPath ? target.path : '';
  const pkg = target.kind === 'package' ? target.name : null;

  if (under(fileRel, 'shared')) {
    if (isPath && !under(path, 'shared')) return 'shared/ imports only shared/ and zod';
    if (target.kind === 'builtin') return 'shared/ imports no Node built-ins';
    if (pkg && pkg !== 'zod') return 'shared/ imports only shared/ and zod';
    return null;
  }
  if (under(fileRel, 'renderer')) {
    if (isPath && under(path, 'main')) return 'renderer/ never imports main/';
    if (isPath && under(path, 'preload') && !/^preload\/api(\.d(\.ts)?)?$/.test(path)) return 'renderer/ imports nothing of preload/ but its type declarations';
    if (target.kind === 'builtin') return 'renderer/ imports no Node built-ins';
    if (pkg === 'electron') return 'only main/electron and preload/ import electron';
    return null;
  }
  if (under(fileRel, 'preload')) {
    if (isPath && !under(path, 'shared') && !under(path, 'preload')) return 'preload/ imports only shared/ and electron';
    if (target.kind === 'builtin' || (pkg && pkg !== 'electron')) return 'preload/ imports only shared/ and electron';
    return null;
  }
  // main/
  if (isPath && under(path, 'renderer')) return 'main/ never imports renderer/';
  if (isPath && under(path, 'preload')) return 'main/ never imports preload/';
  if (pkg === 'electron' && !under(fileRel, 'main/electron')) return 'only main/electron imports electron';
  if (isPath && under(path, 'main/electron') && !under(fileRel, 'main/electron')) return 'only main/electron imports main/electron';
  if (pkg === 'undici' && !under(fileRel, 'main/api')) return 'only main/api imports undici';
  if (pkg === 'ws' && !['main/api', 'main/host', 'main/sandbox'].some((d) => under(fileRel, d))) {
    return "only main/api (client), main/host and main/sandbox (servers) import ws";
  }
  if (under(fileRel, 'main/api') && isPath && under(path, 'main/store')) return 'main/api never imports main/store';
  if (under(fileRel, 'main/sandbox') && isPath && !under(path, 'shared') && !under(path, 'main/sandbox')) {
    return 'main/sandbox imports only shared/ and itself';
  }
  if (under(fileRel, 'main/store') && isPath && !under(path, 'shared') && !under(path, 'main/store')) {
    return 'main/store imports only shared/ and itself';
  }
  return null;
}

function* sourceFiles(root, dir) {
  let entries;
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const rel = posix.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(root, rel);
    else if (EXTENSIONS.test(entry.name)) yield rel;
  }
}

/** Every violation under `root`: `{ file, line, specifier, rule }`. */
export function checkLayers(root) {
  const violations = [];
  for (const dir of SOURCE_DIRS) {
    for (const file of sourceFiles(root, dir)) {
      for (const { specifier, line } of findImports(readFileSync(join(root, file), 'utf8'))) {
        const rule = ruleBroken(file, classify(file, specifier));
        if (rule) violations.push({ file, line, specifier, rule });
      }
    }
  }
  return violations;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const violations = checkLayers(root);
  for (const v of violations) process.stderr.write(`${v.file}:${v.line}: ${v.rule} (imports '${v.specifier}')\n`);
  if (violations.length > 0) {
    process.stderr.write(`check-layers: ${violations.length} violation(s); see DESIGN.md "The house".\n`);
    process.exit(1);
  }
  process.stderr.write(`check-layers: ok (${relative(process.cwd(), root) || '.'})\n`);
}
