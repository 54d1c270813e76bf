import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({ app: { name: 'Inference Workbench' }, Menu: { setApplicationMenu: vi.fn(), buildFromTemplate: vi.fn() } }));

const { menuTemplate } = await import('../../../../main/electron/menu');

describe('menu', () => {
  describe('menuTemplate()', () => {
    it('offers the standard edit and window menus (copy/paste shortcuts work)', () => {
      const roles = menuTemplate('linux').map((item) => item.role ?? item.label);
      expect(roles).toEqual(['fileMenu', 'editMenu', 'View', 'windowMenu']);
    });

    it('puts the app menu first on macOS', () => {
      expect(menuTemplate('darwin')[0]).toMatchObject({ role: 'appMenu', label: 'Inference Workbench' });
    });
  });
});
