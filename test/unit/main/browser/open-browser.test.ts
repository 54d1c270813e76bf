import { describe, expect, it } from 'vitest';
import { openerCommand } from '../../../../main/browser/open-browser';

describe('open-browser', () => {
  describe('openerCommand()', () => {
    const url = 'http://127.0.0.1:5000/#token=a&b';
    it('uses each platform’s opener, passing the URL as one argument', () => {
      expect(openerCommand(url, 'linux')).toEqual(['xdg-open', [url]]);
      expect(openerCommand(url, 'darwin')).toEqual(['open', [url]]);
    });

    it('escapes & for cmd on Windows so the token is not cut off', () => {
      expect(openerCommand(url, 'win32')).toEqual(['cmd', ['/c', 'start', '""', 'http://127.0.0.1:5000/#token=a^&b']]);
    });
  });
});
