import { describe, expect, it } from 'vitest';
import { TransferRate } from '../../../../main/families/files/transfer-rate';

describe('TransferRate', () => {
  it('gives no speed from the first few milliseconds (a multipart header read as minutes left)', () => {
    let t = 1000;
    const rate = new TransferRate(() => t);
    t += 11;
    rate.add(163);
    expect(rate.bytesPerSecond()).toBe(0);
  });

  it('measures over the last two seconds once enough of the transfer has passed', () => {
    let t = 0;
    const rate = new TransferRate(() => t);
    t = 500;
    rate.add(3_000_000);
    expect(rate.bytesPerSecond()).toBe(6_000_000);
    for (let s = 1; s <= 5; s++) {
      t = 500 + s * 1000;
      rate.add(3_000_000 + s * 1_000_000);
    }
    // A stall: the window slides past the fast start, so the shown speed falls.
    t += 2500;
    rate.add(8_000_000);
    expect(rate.bytesPerSecond()).toBeLessThan(500_000);
  });
});
