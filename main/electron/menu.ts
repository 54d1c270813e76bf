/** The application menu: standard roles only (edit shortcuts, reload, dev tools, window). */
import { app, Menu, type MenuItemConstructorOptions } from 'electron';

/** The menu template for `platform` (macOS gets the app menu first). */
export function menuTemplate(platform: NodeJS.Platform = process.platform): MenuItemConstructorOptions[] {
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
  ];
  if (platform === 'darwin') template.unshift({ label: app.name, role: 'appMenu' });
  return template;
}

export function setupMenu(): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate()));
}
