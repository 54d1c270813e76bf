// Types of scripts/check-layers.mjs, for its tests.
export interface LayerViolation {
  file: string;
  line: number;
  specifier: string;
  rule: string;
}
export type ImportTarget = { kind: 'path'; path: string } | { kind: 'builtin'; name: string } | { kind: 'package'; name: string };
export function stripComments(source: string): string;
export function findImports(source: string): { specifier: string; line: number }[];
export function classify(fileRel: string, specifier: string): ImportTarget;
export function ruleBroken(fileRel: string, target: ImportTarget): string | null;
export function checkLayers(root: string): LayerViolation[];
