import { describe, expect, it } from 'vitest';
import { numberFieldText, parseNumberField, stepNumber } from '@/lib/number-field';
import { validateChatRequest } from '@shared/validate/chat';

describe('number-field', () => {
  describe('parseNumberField()', () => {
    it('reads an empty field as unset, not 0', () => {
      expect(parseNumberField('seed', '  ', { integer: true })).toEqual({ ok: true, value: null });
    });

    it('reads plain decimals, signs and a leading point', () => {
      expect(['0.7', '-1', '+2', '.5', '2.'].map((t) => parseNumberField('temperature', t))).toEqual([
        { ok: true, value: 0.7 },
        { ok: true, value: -1 },
        { ok: true, value: 2 },
        { ok: true, value: 0.5 },
        { ok: true, value: 2 },
      ]);
    });

    it('explains a fraction in a whole-number field instead of dropping the point (1.5 never becomes 15)', () => {
      expect(parseNumberField('seed', '1.5', { integer: true })).toEqual({ ok: false, message: 'seed takes a whole number; "1.5" has a fraction' });
      expect(parseNumberField('temperature', '1.5')).toEqual({ ok: true, value: 1.5 });
    });

    it('reads an exponent as the number it is (1e9 never becomes 19)', () => {
      expect(parseNumberField('seed', '1e9', { integer: true })).toEqual({ ok: true, value: 1_000_000_000 });
      expect(parseNumberField('temperature', '2.5E-1')).toEqual({ ok: true, value: 0.25 });
      // An exponent that leaves a fraction is still a fraction in a whole-number field.
      expect(parseNumberField('n', '1e-1', { integer: true }).ok).toBe(false);
    });

    it('explains a comma decimal and shows the point form (0,7 never becomes 7)', () => {
      expect(parseNumberField('top_p', '0,7')).toEqual({ ok: false, message: 'top_p: "0,7" uses a comma; write the decimal point as ".", e.g. 0.7' });
    });

    it('refuses text that is not a number, naming it', () => {
      for (const text of ['abc', '1.2.3', '--1', '1e', '0x10', '1 000', 'Infinity', 'NaN']) {
        expect(parseNumberField('seed', text)).toEqual({ ok: false, message: `seed: "${text}" is not a number` });
      }
    });

    it('refuses numbers too large for the field', () => {
      expect(parseNumberField('temperature', '1e400')).toEqual({ ok: false, message: 'temperature: "1e400" is too large' });
      expect(parseNumberField('seed', '9007199254740993', { integer: true })).toEqual({ ok: false, message: 'seed: "9007199254740993" is too large to send exactly' });
    });

    it('leaves the range to the form: an out-of-range value parses unchanged (never clamped) and the spec rule refuses it', () => {
      const entry = parseNumberField('temperature', '3');
      expect(entry).toEqual({ ok: true, value: 3 });
      const violations = validateChatRequest({ model: 'svc-4', messages: [{ role: 'user', content: 'hi' }], temperature: 3 });
      expect(violations.map((v) => v.field)).toContain('temperature');
    });
  });

  describe('numberFieldText()', () => {
    it('shows a loaded value as typed digits and an unset one as empty', () => {
      expect([numberFieldText(0.7), numberFieldText(1_000_000_000), numberFieldText(null), numberFieldText(undefined)]).toEqual(['0.7', '1000000000', '', '']);
    });
  });

  describe('stepNumber()', () => {
    it('moves by one step without float noise, from 0 when unset, and not at all from invalid text', () => {
      expect(stepNumber({ ok: true, value: 0.2 }, 0.1, 1)).toBe(0.3);
      expect(stepNumber({ ok: true, value: null }, 1, -1)).toBe(-1);
      expect(stepNumber({ ok: false, message: 'x' }, 1, 1)).toBeNull();
    });
  });
});
