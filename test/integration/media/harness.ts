/**
 * The media plane as browser mode runs it, for tests and the benchmark: main's MediaPlane here,
 * the media process a forked child running main/media/entry.ts through tsx, and a page client in
 * a child of its own (page-client.ts).
 */
import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { forkLauncher } from '../../../main/media/fork-launcher';
import { MediaPlane, type MediaPlaneEvent, type RestartPolicy } from '../../../main/media/media-plane';

const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(HERE, '../../..');
export const PAGE_ORIGIN = 'http://127.0.0.1:45999';

export function startPlane(options: { restart?: Partial<RestartPolicy>; log?: (line: string) => void } = {}) {
  const lines: string[] = [];
  const events: MediaPlaneEvent[] = [];
  const log = options.log ?? ((line: string) => lines.push(line));
  const plane = new MediaPlane({
    launch: forkLauncher({ entry: resolve(ROOT, 'main/media/entry.ts'), execArgv: ['--import', 'tsx'], log }),
    log,
    transport: { kind: 'websocket', origins: () => [PAGE_ORIGIN] },
    restart: options.restart,
  });
  plane.onEvent((e) => events.push(e));
  return { plane, lines, events };
}

/** Resolves with the first event matching `match` (already seen or yet to come). */
export function nextEvent(plane: MediaPlane, events: MediaPlaneEvent[], match: (e: MediaPlaneEvent) => boolean): Promise<MediaPlaneEvent> {
  const seen = events.find(match);
  if (seen) return Promise.resolve(seen);
  return new Promise((resolve) => {
    const off = plane.onEvent((e) => {
      if (!match(e)) return;
      off();
      resolve(e);
    });
  });
}

export interface PageReport {
  received: number;
  inOrder: boolean;
  stats: {
    queue: { pushed: number; taken: number; droppedFull: number; droppedStale: number; held: number };
    streams: Record<string, { received: number; delivered: number; gaps: number; missing: number; outOfOrder: number; late: number }>;
    clock: { offset: number; rtt: number; samples: number } | null;
    malformed: number;
  };
  arrivalJitterMs: { p50: number; p99: number; max: number };
  ageMs: { samples: number; p50: number; p95: number; max: number | null };
}

/** Runs page-client.ts until it has seen `frames` frames; resolves with its report. */
export function runPageClient(args: { url: string; token: string; out: number; in: number; frames: number; intervalMs?: number }): Promise<PageReport> {
  return new Promise((resolveReport, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', resolve(HERE, 'page-client.ts'), args.url, args.token, PAGE_ORIGIN, String(args.out), String(args.in), String(args.frames), String(args.intervalMs ?? 20)],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => {
      const line = out.trim().split('\n').at(-1);
      if (code === 0 && line) resolveReport(JSON.parse(line) as PageReport);
      else reject(new Error(`page client exited ${code}: ${err || out}`));
    });
  });
}
