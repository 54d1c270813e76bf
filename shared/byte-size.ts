/**
 * Byte counts as people read them in the Files views and messages ("12.3 MiB of 40 MiB"). Binary
 * multiples, because the service's upload limit is 50 × 2^20 bytes and must read as a round 50,
 * and labelled as what they are (KiB, MiB, GiB): "MB" for 2^20 bytes made 49,000,000 bytes read
 * "46.7 MB" where a decimal reader (a file manager, a browser) says 49 MB.
 */

const UNITS = ['KiB', 'MiB', 'GiB', 'TiB'];

/** `812 bytes`, `12.3 KiB`, `50 MiB`, `1.1 GiB`: one decimal, dropped when it is zero. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  let value = bytes;
  let unit = '';
  for (const u of UNITS) {
    value /= 1024;
    unit = u;
    if (value < 1023.95) break;
  }
  const rounded = Math.round(value * 10) / 10;
  return `${Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toFixed(1)} ${unit}`;
}

/** Why a file cannot be uploaded because of its size, or null when it fits. */
export function oversizeReason(name: string, bytes: number, limit: number): string | null {
  if (bytes <= limit) return null;
  return `"${name}" is ${formatBytes(bytes)}; the service takes files up to ${formatBytes(limit)}. Split or compress it first.`;
}
