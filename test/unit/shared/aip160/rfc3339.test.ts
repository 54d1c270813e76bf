import { describe, expect, it } from 'vitest';
import { parseRfc3339 } from '../../../../shared/aip160/rfc3339';

describe('aip160/rfc3339', () => {
  describe('parseRfc3339()', () => {
    it('reads UTC, offsets, fractions, lower-case t/z and a space separator', () => {
      expect(parseRfc3339('1970-01-01T00:00:00Z')).toBe(0);
      expect(parseRfc3339('2026-11-24T10:00:00Z')).toBe(Date.UTC(2026, 10, 24, 10) / 1000);
      expect(parseRfc3339('2026-11-24T12:00:00+02:00')).toBe(Date.UTC(2026, 10, 24, 10) / 1000);
      expect(parseRfc3339('2026-11-24T04:30:00-05:30')).toBe(Date.UTC(2026, 10, 24, 10) / 1000);
      expect(parseRfc3339('2026-11-24t10:00:00.25z')).toBe(Date.UTC(2026, 10, 24, 10) / 1000 + 0.25);
      expect(parseRfc3339('2026-11-24 10:00:00Z')).toBe(Date.UTC(2026, 10, 24, 10) / 1000);
      expect(parseRfc3339('2024-02-29T00:00:00Z')).toBe(Date.UTC(2024, 1, 29) / 1000);
      expect(parseRfc3339('2016-12-31T23:59:60Z')).toBe(Date.UTC(2017, 0, 1) / 1000);
      expect(parseRfc3339('0099-01-01T00:00:00Z')).toBe(Date.parse('0099-01-01T00:00:00Z') / 1000);
    });

    it('refuses dates and times that do not exist, and text that is not RFC 3339', () => {
      for (const bad of [
        '2026-11-24T10:00:00',
        '2026-11-24',
        '2026-11-24T10:00Z',
        '2026-13-01T00:00:00Z',
        '2026-00-01T00:00:00Z',
        '2026-02-29T00:00:00Z',
        '1900-02-29T00:00:00Z',
        '2026-04-31T00:00:00Z',
        '2026-11-24T24:00:00Z',
        '2026-11-24T10:60:00Z',
        '2026-11-24T10:00:61Z',
        '2026-11-24T10:00:00+24:00',
        '2026-11-24T10:00:00+02:60',
        '2026-11-24T10:00:00+0200',
        '26-11-24T10:00:00Z',
        ' 2026-11-24T10:00:00Z',
        'yesterday',
      ]) {
        expect([bad, parseRfc3339(bad)]).toEqual([bad, null]);
      }
    });
  });
});
