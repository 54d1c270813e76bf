// Types of scripts/ensure-node-abi.mjs, for its tests and callers.
export function isAbiMismatch(err: unknown): boolean;
export function ensureNodeAbi(log?: (line: string) => void): boolean;
