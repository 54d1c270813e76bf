import { describe, expect, it } from 'vitest';
import { formatShortTime } from '@/lib/format';

describe('formatShortTime()', () => {
  const now = new Date(2026, 10, 24, 15, 0).getTime();

  it('shows the time alone for today and the day with the time otherwise', () => {
    const today = formatShortTime(new Date(2026, 10, 24, 7, 46, 2).getTime(), now);
    const earlier = formatShortTime(new Date(2026, 10, 20, 7, 46, 2).getTime(), now);
    expect(today).toMatch(/7:46/);
    expect(today).not.toMatch(/20|24|Nov/);
    expect(earlier).toMatch(/Nov/);
    expect(earlier).toMatch(/20/);
    expect(earlier).toMatch(/7:46/);
    expect(earlier).not.toMatch(/:02/);
  });
});
