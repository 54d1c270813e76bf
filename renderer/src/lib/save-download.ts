/**
 * Browser mode's saving: main hands the page a one-time link (GET /downloads/<token>), and an
 * anchor with `download` gives it to the browser's own download, which asks where to save.
 */

/** Starts the browser's download of `url` under `filename`. */
export function saveThroughBrowser(url: string, filename: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
}
