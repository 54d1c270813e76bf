/**
 * The application menu: standard roles (edit shortcuts, reload, window) and Help > Open Log File.
 * Developer Tools are offered only in development builds: in an installed app they would hand
 * anyone at the keyboard a console inside the page (and its session) with one shortcut.
 */
import { app, Menu, type MenuItemConstructorOptions } from 'electron';

/** What the menu's own items do; injected so the menu holds no app logic. */
export interface MenuActions {
  /** Opens the log file in the system's default program. */
  openLogFile?: () => void;
}

/** How the menu differs between builds. */
export interface MenuOptions {
  /** A development build (`!app.isPackaged`): View gets Toggle Developer Tools. */
  development: boolean;
}

/** The menu template for `platform` (macOS gets the app menu first). */
export function menuTemplate(
  platform: NodeJS.Platform = process.platform,
  actions: MenuActions = {},
  options: MenuOptions = { development: false },
): MenuItemConstructorOptions[] {
  const devTools: MenuItemConstructorOptions[] = options.development ? [{ role: 'toggleDevTools' }] : [];
  const template: MenuItemConstructorOptions[] = [
    { role: 'fileMenu' },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        ...devTools,
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

/** Installs the menu; developer tools only when the app is not packaged. */
export function setupMenu(actions: MenuActions = {}): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(process.platform, actions, { development: !app.isPackaged })));
}
