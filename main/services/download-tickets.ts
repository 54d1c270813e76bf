/**
 * One-time download links for browser mode. main saves a file's content to a private temporary
 * file, then hands the page a link holding a 256-bit token; the browser-mode server serves it
 * once (Content-Disposition: attachment), so the browser's own download saves it where the user
 * wants. The token is the credential (it was handed out over the authenticated WebSocket and
 * dies after one use or a minute), because a plain link cannot carry the page's Bearer token.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

/** The path under which the browser-mode server serves tickets. */
export const DOWNLOAD_ROUTE = '/downloads/';

export interface DownloadTicket {
  path: string;
  filename: string;
  bytes: number;
}

interface Entry extends DownloadTicket {
  expiresAt: number;
}

export interface DownloadTicketsOptions {
  /** A folder owned by the tickets alone: emptied at start and at dispose. */
  dir: string;
  /** How long an unused link stays valid (default one minute). */
  ttlMs?: number;
  now?: () => number;
  log?: (line: string) => void;
}

/** Where a save goes: Electron's save dialog, else browser mode's one-time links. */
export interface SaveTarget {
  /** Electron's save dialog; null when the user closed it. Absent in browser mode. */
  chooseSaveTarget?: (suggestedName: string) => Promise<string | null>;
  tickets: DownloadTickets;
}

/**
 * The file to write a save of `filename` to: where the user chose (Electron), or a ticket's
 * temporary file (browser mode: `token` set, publish it once written). Null when the dialog was closed.
 */
export async function chooseDestination(target: SaveTarget, filename: string): Promise<{ dest: string; token: string | null } | null> {
  if (target.chooseSaveTarget) {
    const chosen = await target.chooseSaveTarget(filename);
    return chosen ? { dest: chosen, token: null } : null;
  }
  const { token, path } = target.tickets.reserve();
  return { dest: path, token };
}

export class DownloadTickets {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;
  private readonly ttlMs: number;

  constructor(private readonly options: DownloadTicketsOptions) {
    this.now = options.now ?? Date.now;
    this.ttlMs = options.ttlMs ?? 60_000;
    rmSync(options.dir, { recursive: true, force: true });
    mkdirSync(options.dir, { recursive: true, mode: 0o700 });
  }

  /** A fresh token and the temporary file the content should be written to. */
  reserve(): { token: string; path: string } {
    const token = randomBytes(32).toString('base64url');
    return { token, path: join(this.options.dir, token) };
  }

  /** Makes the written file downloadable once; returns the link (a path on the app's origin). */
  publish(token: string, ticket: DownloadTicket): string {
    this.sweep();
    this.entries.set(token, { ...ticket, expiresAt: this.now() + this.ttlMs });
    return `${DOWNLOAD_ROUTE}${token}`;
  }

  /** The ticket behind `token`, removed so no one gets it twice; null when unknown or expired. */
  take(token: string): DownloadTicket | null {
    this.sweep();
    const entry = this.entries.get(token);
    if (!entry) return null;
    this.entries.delete(token);
    return { path: entry.path, filename: entry.filename, bytes: entry.bytes };
  }

  /** Deletes a served (or abandoned) temporary file. */
  discard(path: string): void {
    rm(path, { force: true }).catch((err: unknown) => this.options.log?.(`[downloads] could not delete ${path}: ${err instanceof Error ? err.message : String(err)}`));
  }

  dispose(): void {
    this.entries.clear();
    rmSync(this.options.dir, { recursive: true, force: true });
  }

  private sweep(): void {
    const now = this.now();
    for (const [token, entry] of this.entries) {
      if (entry.expiresAt <= now) {
        this.entries.delete(token);
        this.discard(entry.path);
      }
    }
  }
}
