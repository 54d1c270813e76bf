import { describe, expect, it } from 'vitest';
import { parseBrowserArgs } from '../../../../main/browser/args';

describe('args', () => {
  describe('parseBrowserArgs()', () => {
    it('defaults to any free port, the default data folder, and no browser', () => {
      expect(parseBrowserArgs([])).toEqual({ port: 0, dataDir: undefined, sandboxPort: undefined, open: false });
    });

    it('reads --port, --data-dir (both spellings) and --open', () => {
      expect(parseBrowserArgs(['--port', '8123', '--data-dir=/tmp/wb', '--open'])).toEqual({ port: 8123, dataDir: '/tmp/wb', sandboxPort: undefined, open: true });
      expect(parseBrowserArgs(['--port=0', '--data-dir', 'x']).dataDir).toBe('x');
    });

    it('reads --sandbox-port, the built-in sandbox\'s preferred port', () => {
      expect(parseBrowserArgs(['--sandbox-port', '4011']).sandboxPort).toBe(4011);
      expect(parseBrowserArgs(['--sandbox-port=65535']).sandboxPort).toBe(65535);
    });

    it.each([
      [['--port', '70000'], /--port must be/],
      [['--port', 'abc'], /--port must be/],
      [['--data-dir'], /--data-dir needs a value/],
      [['--sandbox-port', '80'], /--sandbox-port must be a whole number from 1024/],
      [['--verbose'], /unknown flag --verbose/],
    ])('refuses %j', (argv, message) => {
      expect(() => parseBrowserArgs(argv)).toThrow(message);
    });
  });
});
