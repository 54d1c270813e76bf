/**
 * API keys and the teams they belong to. `Authorization: Bearer <key>`: a missing or malformed
 * header is 401; a well-formed but unknown key is 400 "Incorrect API key provided" (wire-notes §7).
 */
import { randomBytes } from 'node:crypto';
import { SandboxError } from './errors';

export const DEFAULT_TEAM = 'team-sandbox';

export type KeySpec = string | { key: string; team: string };

export interface KeyRing {
  /** Every accepted key, in the order given. */
  readonly keys: string[];
  /** The team of the request's key; throws SandboxError 401/400 otherwise. */
  authenticate(authorization: string | undefined): string;
}

/** A fresh key in the service's style: `sk-sandbox-<24 hex>`. */
export function generateKey(): string {
  return `sk-sandbox-${randomBytes(12).toString('hex')}`;
}

/** `sk***yz`: enough of a key to recognise it in an error without leaking it. */
export function maskKey(key: string): string {
  return key.length <= 4 ? '***' : `${key.slice(0, 2)}***${key.slice(-2)}`;
}

/** Builds the key ring; with no keys, one generated key for DEFAULT_TEAM. */
export function createKeyRing(specs: KeySpec[] | undefined): KeyRing {
  const teams = new Map<string, string>();
  const list = specs && specs.length > 0 ? specs : [generateKey()];
  for (const spec of list) {
    const { key, team } = typeof spec === 'string' ? { key: spec, team: DEFAULT_TEAM } : spec;
    if (!key || /\s/.test(key)) throw new Error(`Sandbox API keys must be non-empty and contain no spaces: "${key}"`);
    teams.set(key, team);
  }
  return {
    keys: [...teams.keys()],
    authenticate(authorization) {
      if (!authorization) {
        throw new SandboxError(
          401,
          'Missing Authorization header: send "Authorization: Bearer <API key>" with every request.',
        );
      }
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
      if (!match) {
        throw new SandboxError(
          401,
          'Malformed Authorization header: it must be "Bearer <API key>".',
        );
      }
      const team = teams.get(match[1]);
      if (team === undefined) {
        throw new SandboxError(
          400,
          `Incorrect API key provided: ${maskKey(match[1])}. You can obtain an API key from the sandbox's start-up output (npm run sandbox prints the keys it accepts).`,
        );
      }
      return team;
    },
  };
}
