/**
 * Worker threads load the codecs by absolute path. In a packaged Electron app a path resolves
 * inside `app.asar`, which only the main thread's patched `fs` can read: electron-builder.yml
 * unpacks those packages, and workers load them from `app.asar.unpacked`.
 */
export function unpackedPath(path: string): string {
  return path.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}
