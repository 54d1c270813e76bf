import { describe, expect, it } from 'vitest';
import { formatPlayerTime, joinCharTimestamps, litCount, timedChars } from '@/lib/char-timestamps';

describe('char timestamps', () => {
  it('reads [start, end] pairs, and a bare number or a missing pair from its neighbours', () => {
    const chars = timedChars({ graph_chars: ['a', 'b', 'c', 'd'], graph_times: [[0, 0.1], 0.1, [0.3, 0.2]] });
    expect(chars).toEqual([
      { char: 'a', start: 0, end: 0.1 },
      { char: 'b', start: 0.1, end: 0.3 },
      { char: 'c', start: 0.3, end: 0.3 },
      { char: 'd', start: 0.3, end: 0.3 },
    ]);
    expect(timedChars(null)).toEqual([]);
  });

  it('counts the characters started by a time (binary search over 60,000 characters agrees with a scan)', () => {
    const n = 60_000;
    const chars = timedChars({ graph_chars: Array.from({ length: n }, () => 'x'), graph_times: Array.from({ length: n }, (_, i) => [i * 0.05, i * 0.05 + 0.05] as [number, number]) });
    for (const t of [-1, 0, 0.049, 0.05, 1234.567, 2999.95, 5000]) expect(litCount(chars, t)).toBe(chars.filter((c) => c.start <= t).length);
  });

  it('joins streamed chunks, each shifted by the audio before it', () => {
    const joined = joinCharTimestamps([
      { stamps: { graph_chars: ['H', 'i'], graph_times: [[0, 0.1], [0.1, 0.2]] }, offsetSeconds: 0 },
      { stamps: { graph_chars: ['!'], graph_times: [[0, 0.05]] }, offsetSeconds: 0.48 },
    ]);
    expect(joined).toEqual({ graph_chars: ['H', 'i', '!'], graph_times: [[0, 0.1], [0.1, 0.2], [0.48, 0.53]] });
  });

  it('formats the player clock in tenths', () => {
    expect(formatPlayerTime(0)).toBe('0:00.0');
    expect(formatPlayerTime(61.29)).toBe('1:01.2');
    expect(formatPlayerTime(NaN)).toBe('0:00.0');
  });
});
