/**
 * Times the Files views show: a countdown to a file's expiry ("in 59 min", "in 2 d 3 h"), the
 * time left of a transfer ("12 s left"), and a speed ("1.4 MB/s").
 */
import { formatBytes } from '@shared/byte-size';
import type { FileRecord } from '@shared/families/files/contract';
import { formatShortTime } from './format';

/** `45 s`, `59 min`, `3 h 20 min`, `2 d 3 h`: the two largest units, for countdowns. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min${s % 60 && m < 10 ? ` ${s % 60} s` : ''}`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h} h${m % 60 ? ` ${m % 60} min` : ''}`;
  const d = Math.floor(h / 24);
  return `${d} d${h % 24 ? ` ${h % 24} h` : ''}`;
}

/** `1.4 MB/s`, or '' while unknown. */
export function formatSpeed(bytesPerSecond: number): string {
  return bytesPerSecond > 0 ? `${formatBytes(bytesPerSecond)}/s` : '';
}

/** How a file's expiry reads at `now`: the countdown, or that it expired or never does. */
export function expiryLabel(expiresAt: number | null, now: number): { text: string; severity: 'secondary' | 'info' | 'warn' | 'danger' } {
  if (expiresAt === null) return { text: 'never expires', severity: 'secondary' };
  const left = (expiresAt - now) / 1000;
  if (left <= 0) return { text: 'expired', severity: 'danger' };
  return { text: `expires in ${formatDuration(left)}`, severity: left < 3600 ? 'warn' : 'info' };
}

/**
 * What became of a file that is no longer on the service, with its date in the same format as
 * every other date in the Files lists (formatShortTime), not the one main wrote into the message:
 * a deletion dates from when the service confirmed it (`lastSeenAt`), an expiry from `expiresAt`.
 * Other statuses give main's words as they are; null when there is nothing to say.
 */
export function fileStatusNote(file: Pick<FileRecord, 'status' | 'statusMessage' | 'lastSeenAt' | 'expiresAt'>, now: number = Date.now()): string | null {
  if (file.status === 'deleted') return `Deleted from the service ${formatShortTime(file.lastSeenAt, now)}.`;
  if (file.status === 'expired' && file.expiresAt !== null) {
    return `Expired ${formatShortTime(file.expiresAt, now)}; the service no longer has it. Upload it again to use it.`;
  }
  return file.statusMessage;
}
