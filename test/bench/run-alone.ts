/**
 * A bench file run on its own (`npx tsx test/bench/<file>.ts`) rather than through run.ts: its
 * figures as JSON on stdout and exit 0, or the failure on stderr and exit 1. Imported by a bench
 * run.ts loads, it does nothing.
 *
 *   runAlone(import.meta, () => myBench(Number(process.argv[2]) || undefined));
 */
import { pathToFileURL } from 'node:url';

export function runAlone(meta: ImportMeta, bench: () => Promise<unknown>): void {
  if (meta.url !== pathToFileURL(process.argv[1] ?? '').href) return;
  bench().then(
    (r) => {
      console.log(JSON.stringify(r, null, 2));
      process.exit(0);
    },
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
