import { describe, expect, it } from 'vitest';
import type { RunSummary } from '@shared/contract/runs';
import { groupPlaces } from '@/lib/history-groups';

const row = (id: string, group?: string): RunSummary => ({ id, group: group ? { kind: 'compare', id: group } : null }) as RunSummary;

describe('groupPlaces()', () => {
  it('places the adjacent rows of a comparison as one block, first row first', () => {
    const places = groupPlaces([row('solo'), row('a', 'g1'), row('b', 'g1'), row('c', 'g1'), row('other')]);
    expect(places.get('solo')).toBeUndefined();
    expect([...places.entries()]).toEqual([
      ['a', { id: 'g1', size: 3, index: 0, last: false }],
      ['b', { id: 'g1', size: 3, index: 1, last: false }],
      ['c', { id: 'g1', size: 3, index: 2, last: true }],
    ]);
  });

  it('starts a new block when a comparison is split by another run, counting all its loaded runs', () => {
    const places = groupPlaces([row('a', 'g1'), row('x'), row('b', 'g1'), row('c', 'g2'), row('d', 'g2')]);
    expect(places.get('a')).toEqual({ id: 'g1', size: 2, index: 0, last: true });
    expect(places.get('b')).toEqual({ id: 'g1', size: 2, index: 0, last: true });
    expect(places.get('c')).toMatchObject({ id: 'g2', index: 0, last: false });
    expect(places.get('d')).toMatchObject({ id: 'g2', index: 1, last: true });
  });
});
