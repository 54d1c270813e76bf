/**
 * Byte counts as people read them in messages and progress ("12.3 MB of 40 MB"). Decimal units,
 * as file managers and download dialogs show them.
 */

const UNITS = ['kB', 'MB', 'GB', 'TB'];

/** `812 bytes`, `12.3 kB`, `40 MB`, `1.1 GB`: one decimal, dropped when it is zero. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  let value = bytes;
  let unit = '';
  for (const u of UNITS) {
    value /= 1000;
    unit = u;
    if (value < 999.95) break;
  }
  const rounded = Math.round(value * 10) / 10;
  return `${Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toFixed(1)} ${unit}`;
}
