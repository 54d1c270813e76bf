// Types of scripts/build.mjs, for its tests.
export function newestMtime(path: string): number;
export function isStale(base?: string): boolean;
