import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({ app: { name: 'Inference Workbench' }, Menu: { setApplicationMenu: vi.fn(), buildFromTemplate: vi.fn() } }));

const { menuTemplate } = await import('../../../../main/electron/menu');

describe('menu', () => {
  describe('menuTemplate()', () => {
    it('offers the standard edit and window menus (copy/paste shortcuts work) and Help', () => {
      const roles = menuTemplate('linux').map((item) => item.role ?? item.label);
      expect(roles).toEqual(['fileMenu', 'editMenu', 'View', 'windowMenu', 'help']);
    });

    it('offers Toggle Developer Tools in development builds only', () => {
      const viewRoles = (development: boolean): unknown[] =>
        ((menuTemplate('linux', {}, { development }).find((item) => item.label === 'View')?.submenu ?? []) as Array<{ role?: string }>).map((item) => item.role);
      expect(viewRoles(false)).not.toContain('toggleDevTools');
      expect(menuTemplate('linux').flatMap((item) => (Array.isArray(item.submenu) ? item.submenu : [])).some((item) => item.role === 'toggleDevTools')).toBe(false);
      expect(viewRoles(true)).toContain('toggleDevTools');
    });

    it('puts the app menu first on macOS', () => {
      expect(menuTemplate('darwin')[0]).toMatchObject({ role: 'appMenu', label: 'Inference Workbench' });
    });

    it('has Help > Open Log File, which runs the injected action', () => {
      const openLogFile = vi.fn();
      const help = menuTemplate('linux', { openLogFile }).find((item) => item.role === 'help');
      const item = (help?.submenu as Array<{ label?: string; enabled?: boolean; click?: () => void }>)[0];
      expect(item).toMatchObject({ label: 'Open Log File', enabled: true });
      item.click?.();
      expect(openLogFile).toHaveBeenCalledOnce();
    });

    it('greys Open Log File out when no action was given', () => {
      const help = menuTemplate('linux').find((item) => item.role === 'help');
      expect((help?.submenu as Array<{ enabled?: boolean }>)[0].enabled).toBe(false);
    });
  });
});
