import { describe, expect, it } from 'vitest';
import { KeyedSubscriptions } from '../../../../main/host/keyed-subscriptions';

describe('KeyedSubscriptions', () => {
  it('keeps subscribers per channel and key, refuses undeclared channels and caps each window', () => {
    const subs = new KeyedSubscriptions<string>(new Set(['live.level']), 3);
    expect(subs.subscribe('w1', 'live.level', 'a')).toBeNull();
    expect(subs.subscribe('w1', 'live.level', 'a')).toBeNull();
    expect(subs.subscribe('w2', 'live.level', 'a')).toBeNull();
    expect(subs.subscribe('w1', 'live.changed', 'a')).toMatchObject({ code: 'invalid_input', issues: [{ path: 'channel' }] });
    expect(subs.subscribers('live.level', 'a')).toEqual(['w1', 'w2']);
    expect(subs.subscribers('live.level', 'b')).toEqual([]);
    subs.subscribe('w1', 'live.level', 'b');
    subs.subscribe('w1', 'live.level', 'c');
    expect(subs.subscribe('w1', 'live.level', 'd')).toMatchObject({ code: 'invalid_input' });
    // Another window has its own allowance.
    expect(subs.subscribe('w2', 'live.level', 'd')).toBeNull();
    subs.unsubscribe('w1', 'live.level', 'a');
    expect(subs.subscribers('live.level', 'a')).toEqual(['w2']);
    subs.drop('w2');
    expect(subs.subscribers('live.level', 'a')).toEqual([]);
    expect(subs.subscribers('live.level', 'd')).toEqual([]);
    expect(subs.size()).toBe(2);
  });
});
