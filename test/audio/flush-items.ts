/** The items of the flush case (alsa-child.ts flush): 48 kHz mono, never zero; A positive, B its negative. */
export function flushItem(frames: number, sign: 1 | -1): Int16Array {
  return Int16Array.from({ length: frames }, (_, i) => sign * (1 + (i % 1000)));
}
