/**
 * DTMF buffering rules on a driven clock: an event per key, one flush on `#`, after 2.5 s with no
 * key, or when the caller speaks; never a flush of nothing; bad keys refused.
 */
import { describe, expect, it } from 'vitest';
import { DTMF_IDLE_FLUSH_MS, DtmfBuffer, type DtmfEvent, type DtmfError } from '../../../../../../main/sandbox/realtime/turns/dtmf';

const T0 = 1_730_000_000_000;
const ok = (r: DtmfEvent[] | DtmfError): DtmfEvent[] => {
  if (!Array.isArray(r)) throw new Error(r.message);
  return r;
};
const flushes = (events: DtmfEvent[]) => events.filter((e) => e.type === 'dtmf_flush');

describe('DtmfBuffer', () => {
  it('announces each key with its time and flushes the digits with # included on #', () => {
    const d = new DtmfBuffer();
    const events = [...ok(d.press('1', T0)), ...ok(d.press('2', T0 + 400)), ...ok(d.press('#', T0 + 1500))];
    expect(events).toEqual([
      { type: 'dtmf_event_received', digit: '1', receivedAt: 1_730_000_000 },
      { type: 'dtmf_event_received', digit: '2', receivedAt: 1_730_000_000 },
      { type: 'dtmf_event_received', digit: '#', receivedAt: 1_730_000_001 },
      { type: 'dtmf_flush', digits: '12#', reason: 'pound', text: '12#' },
    ]);
    expect(d.pending).toBe('');
    expect(d.deadline()).toBeNull();
  });

  it('flushes after 2.5 s with no key, counted from the last key', () => {
    const d = new DtmfBuffer();
    ok(d.press('4', T0));
    ok(d.press('2', T0 + 2000));
    expect(d.deadline()).toBe(T0 + 2000 + DTMF_IDLE_FLUSH_MS);
    expect(d.tick(T0 + 2500)).toEqual([]);
    expect(d.tick(T0 + 4499)).toEqual([]);
    expect(d.tick(T0 + 4500)).toEqual([{ type: 'dtmf_flush', digits: '42', reason: 'idle', text: '42' }]);
    // Once.
    expect(d.tick(T0 + 9000)).toEqual([]);
  });

  it('flushes what was typed before a key that comes after the idle time, even if the timer had not run', () => {
    const d = new DtmfBuffer();
    ok(d.press('7', T0));
    const events = ok(d.press('8', T0 + 3000));
    expect(events.map((e) => e.type)).toEqual(['dtmf_flush', 'dtmf_event_received']);
    expect(flushes(events)[0]).toMatchObject({ digits: '7', reason: 'idle' });
    expect(d.pending).toBe('8');
  });

  it('flushes when the caller starts speaking, and not when there is nothing', () => {
    const d = new DtmfBuffer();
    expect(d.speechStarted()).toEqual([]);
    ok(d.press('*', T0));
    ok(d.press('9', T0 + 100));
    expect(d.speechStarted()).toEqual([{ type: 'dtmf_flush', digits: '*9', reason: 'speech', text: '*9' }]);
    expect(d.speechStarted()).toEqual([]);
    expect(d.tick(T0 + 10_000)).toEqual([]);
  });

  it('presses a string of keys in order (the control API) and refuses keys that are not DTMF', () => {
    const d = new DtmfBuffer();
    const events = ok(d.pressAll('12#3', T0));
    expect(events.map((e) => (e.type === 'dtmf_flush' ? `flush:${e.digits}` : e.digit))).toEqual(['1', '2', '#', 'flush:12#', '3']);
    expect(d.pending).toBe('3');
    expect(d.pressAll('1x', T0)).toMatchObject({ code: 'invalid_dtmf_digit', message: expect.stringContaining("'x'") });
    expect(d.press('12', T0)).toMatchObject({ code: 'invalid_dtmf_digit' });
    expect(d.pressAll('', T0)).toMatchObject({ code: 'invalid_dtmf_digit' });
    // Nothing of a refused string was taken.
    expect(d.pending).toBe('3');
  });
});
