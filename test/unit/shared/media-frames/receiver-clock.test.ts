import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClockOffset, decodePong, encodePong, FrameReceiver, intervalJitter, percentile } from '../../../../shared/media-frames';

describe('FrameReceiver', () => {
  it('counts gaps, missing and out-of-order frames', () => {
    const r = new FrameReceiver();
    expect([0, 1, 2].map((s) => r.accept(s))).toEqual(['in-order', 'in-order', 'in-order']);
    expect(r.accept(5)).toBe('after-gap');
    expect(r.accept(3)).toBe('out-of-order');
    expect(r.accept(5)).toBe('out-of-order');
    expect(r.accept(6)).toBe('in-order');
    expect(r.stats()).toEqual({ received: 7, delivered: 5, gaps: 1, missing: 2, outOfOrder: 2, late: 0 });
  });

  it('continues across the 2^32 wrap without a gap', () => {
    const r = new FrameReceiver();
    for (const s of [2 ** 32 - 2, 2 ** 32 - 1, 0, 1]) r.accept(s);
    expect(r.stats()).toMatchObject({ delivered: 4, gaps: 0, outOfOrder: 0 });
  });

  it('counts frames older than lateAfterMs as late, still delivering them', () => {
    const r = new FrameReceiver({ lateAfterMs: 50 });
    r.accept(0, 10);
    r.accept(1, 80);
    r.accept(2);
    expect(r.stats()).toMatchObject({ delivered: 3, late: 1 });
  });

  it('any arrival order: delivered + outOfOrder = received, and missing counts the skipped numbers', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 200 }), { minLength: 1, maxLength: 100 }), (seqs) => {
        const r = new FrameReceiver();
        for (const s of seqs) r.accept(s);
        const st = r.stats();
        expect(st.delivered + st.outOfOrder).toBe(st.received);
        // Delivered frames are strictly increasing: first + (delivered - 1) + missing = the last delivered.
        let last = -1;
        const delivered: number[] = [];
        for (const s of seqs) if (s > last) delivered.push((last = s));
        expect(st.delivered).toBe(delivered.length);
        expect(delivered[0] + st.delivered - 1 + st.missing).toBe(delivered.at(-1));
      }),
    );
  });
});

describe('ClockOffset', () => {
  it('recovers the offset exactly from a symmetric exchange', () => {
    const c = new ClockOffset();
    // Their clock is 5000 ms ahead; 3 ms each way, 1 ms inside.
    expect(c.add(100, 5103, 5104, 107)).toEqual({ offset: 5000, rtt: 6, samples: 1 });
    expect(c.toLocal(6000)).toBe(1000);
  });

  it('keeps the min-RTT sample: a leg delayed by a busy loop is outvoted', () => {
    const c = new ClockOffset(4);
    c.add(0, 1002, 1002, 4); // rtt 4, offset 1000
    c.add(10, 1212, 1212, 214); // a 200 ms stall on the way back: rtt 204, offset 905
    expect(c.estimate()).toMatchObject({ offset: 1000, rtt: 4, samples: 2 });
  });

  it('forgets samples older than its window', () => {
    const c = new ClockOffset(2);
    c.add(0, 1001, 1001, 2); // rtt 2
    c.add(10, 1015, 1015, 20); // rtt 10, offset 1000
    c.add(30, 1040, 1040, 50); // rtt 20, offset 1000
    expect(c.estimate()).toMatchObject({ rtt: 10 });
  });

  it('ignores impossible samples', () => {
    const c = new ClockOffset();
    expect(c.add(10, 0, 100, 20)).toBeNull();
  });

  it('the estimate is within rtt/2 of the truth for any delays', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.array(fc.tuple(fc.double({ min: 0, max: 300, noNaN: true }), fc.double({ min: 0, max: 300, noNaN: true }), fc.double({ min: 0, max: 5, noNaN: true })), { minLength: 1, maxLength: 20 }),
        (truth, legs) => {
          const c = new ClockOffset();
          let t = 1000;
          for (const [out, back, inside] of legs) {
            const t0 = t;
            const t1 = t0 + out + truth;
            const t2 = t1 + inside;
            const t3 = t2 - truth + back;
            c.add(t0, t1, t2, t3);
            t = t3 + 1;
          }
          const e = c.estimate()!;
          expect(Math.abs(e.offset - truth)).toBeLessThanOrEqual(e.rtt / 2 + 1e-6);
          expect(e.samples).toBe(legs.length);
        },
      ),
    );
  });

  it('pong payloads round-trip', () => {
    expect(decodePong(encodePong(1.5, 2.5, 3.5))).toEqual([1.5, 2.5, 3.5]);
    expect(decodePong(new Uint8Array(3))).toBeNull();
  });
});

describe('figures', () => {
  it('percentile and interval jitter', () => {
    expect(percentile([5, 1, 4, 2, 3], 50)).toBe(3);
    expect(percentile([1, 2, 3, 4, 100], 99)).toBe(100);
    expect(intervalJitter([0, 20, 41, 59], 20)).toEqual([0, 1, 2]);
  });
});
