/** The application menu: standard roles (edit shortcuts, reload, dev tools, window) and Help > Open Log File. */
import { app, Menu, type MenuItemConstructorOptions } from 'electron';

/** What the menu's own items do; injected so the menu holds no app logic. */
export interface MenuActions {
  /** Opens the log file in the system's default program. */
  openLogFile?: () => void;
}

/** The menu template for `platform` (macOS gets the app menu first). */
export function menuTemplate(platform: NodeJS.Platform = process.platform, actions: MenuActions = {}): MenuItemConstructorOptions[] {
  const template: MenuItemConstructorOptions[] = [
    { role: 'fileMenu' },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        { role: 'toggleDevTools' },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [{ label: 'Open Log File', enabled: actions.openLogFile !== undefined, click: () => actions.openLogFile?.() }],
    },
  ];
  if (platform === 'darwin') template.unshift({ label: app.name, role: 'appMenu' });
  return template;
}

export function setupMenu(actions: MenuActions = {}): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(process.platform, actions)));
}
