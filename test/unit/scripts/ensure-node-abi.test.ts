import { describe, expect, it } from 'vitest';
import { ensureNodeAbi, isAbiMismatch } from '../../../scripts/ensure-node-abi.mjs';

describe('ensure-node-abi', () => {
  describe('isAbiMismatch()', () => {
    it('recognises a native module built for another runtime', () => {
      const err = new Error(
        "The module 'better_sqlite3.node' was compiled against a different Node.js version using NODE_MODULE_VERSION 140. This version of Node.js requires NODE_MODULE_VERSION 115.",
      );
      expect(isAbiMismatch(err)).toBe(true);
    });

    it('does not mistake other load failures for it', () => {
      expect(isAbiMismatch(new Error('libportaudio.so.2: cannot open shared object file'))).toBe(false);
    });
  });

  describe('ensureNodeAbi()', () => {
    it('leaves modules alone when they already load in this Node', () => {
      const lines: string[] = [];
      expect(ensureNodeAbi((line) => lines.push(line))).toBe(true);
      expect(lines).toEqual([]);
    });
  });
});
