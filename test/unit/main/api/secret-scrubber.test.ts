import { describe, expect, it } from 'vitest';
import { SECRET_MASK, SecretScrubber, secretForms } from '../../../../main/api/secret-scrubber';

const KEY = 'sk-live/9Zq+Tf3LmW7xR2pV8nB4';
const b64 = (s: string): string => Buffer.from(s).toString('base64');
const b64url = (s: string): string => Buffer.from(s).toString('base64url');

/** Each shape a service or proxy has been seen (or could be expected) to echo a key in. */
const ECHOES: Array<[string, string]> = [
  ['raw', `invalid key ${KEY}.`],
  ['Bearer', `Authorization: Bearer ${KEY}`],
  ['JSON-escaped', JSON.stringify({ m: KEY }).replace(/\//g, '\\/')],
  ['URL-encoded', `?key=${encodeURIComponent(KEY)}&x=1`],
  ['URL-encoded, lower-case hex', `?key=${encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())}`],
  ['base64', `token ${b64(KEY)} end`],
  ['base64 without padding', b64(KEY).replace(/=+$/, '')],
  ['base64url', `x${b64url(KEY)}y`],
  ['Basic base64(":" + key)', `Basic ${b64(`:${KEY}`)}`],
  ['Basic base64("user:" + key)', `Basic ${b64(`user:${KEY}`)}`],
  ['base64 of a longer JSON holding it', b64(JSON.stringify({ api_key: KEY, n: 1 }))],
  ['base64url of "ab:" + key', b64url(`ab:${KEY}`)],
  ['hex, lower case', `digest=${Buffer.from(KEY).toString('hex')};`],
  ['hex, upper case', `0x${Buffer.from(KEY).toString('hex').toUpperCase()}`],
  ['hex inside a longer hex dump', Buffer.from(`key=${KEY}\n`).toString('hex')],
];

describe('secret-scrubber', () => {
  const scrubber = new SecretScrubber([KEY]);

  describe('secretForms()', () => {
    it('gives nothing for a secret too short to mask without blanking ordinary words', () => {
      expect(secretForms('abc1234')).toEqual([]);
    });

    it('puts longer forms first so a padded base64 is masked whole, not around its core', () => {
      const forms = secretForms(KEY);
      expect(forms.indexOf(b64(KEY))).toBeLessThan(forms.indexOf(b64(KEY).replace(/=+$/, '')));
    });
  });

  describe('SecretScrubber.text()', () => {
    for (const [name, text] of ECHOES) {
      it(`masks the key echoed as ${name}`, () => {
        expect(scrubber.finds(text)).toBe(true);
        const out = scrubber.text(text);
        expect(out).toContain(SECRET_MASK);
        expect(scrubber.finds(out)).toBe(false);
        expect(out).not.toContain(KEY);
      });
    }

    it('leaves text without the key untouched', () => {
      const text = 'an ordinary answer with sk- and base64 c2stbGl2ZQ== in it';
      expect(scrubber.text(text)).toBe(text);
    });

    it('knows several secrets at once', () => {
      const two = new SecretScrubber(['first-secret-123', null, 'second-secret-456']);
      expect(two.text('first-secret-123 / second-secret-456')).toBe('*** / ***');
    });
  });

  describe('SecretScrubber.value()', () => {
    it('masks strings and keys at any depth and shares what did not change', () => {
      const untouched = { ok: ['a', 1, null, true] };
      const value = { error: { message: `bad ${KEY}`, [KEY]: 1, list: [b64(KEY)] }, untouched, bytes: new Uint8Array([1]) };
      const out = scrubber.value(value);
      expect(out).toEqual({ error: { message: 'bad ***', '***': 1, list: ['***'] }, untouched, bytes: new Uint8Array([1]) });
      expect(out.untouched).toBe(untouched);
      expect(value.error.message).toBe(`bad ${KEY}`);
    });

    it('returns a value with nothing to mask as it is', () => {
      const value = { a: [{ b: 'c' }] };
      expect(scrubber.value(value)).toBe(value);
    });

    it('walks a nesting 100,000 levels deep without overflowing the stack', () => {
      let deep: unknown = KEY;
      for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { d: deep };
      let out = scrubber.value(deep);
      for (let i = 0; i < 100_000; i++) out = Array.isArray(out) ? out[0] : (out as { d: unknown }).d;
      expect(out).toBe(SECRET_MASK);
    });
  });

  describe('SecretScrubber.event()', () => {
    it('masks a key spelled with JSON escapes that only parsing reveals, and re-serialises that data', () => {
      const escaped = [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
      const event = { event: null, data: `{"error":{"message":"key ${escaped}"}}`, id: null, retry: null };
      expect(scrubber.finds(event.data)).toBe(false);
      const out = scrubber.event(event);
      expect(JSON.parse(out.data)).toEqual({ error: { message: 'key ***' } });
    });

    it('masks a JSON-escaped key quoted inside another JSON text', () => {
      const data = JSON.stringify({ quoted: JSON.stringify({ k: KEY }).replace(/\//g, '\\/') });
      expect(JSON.stringify(JSON.parse(scrubber.event({ data }).data))).not.toContain('9Zq+Tf3L');
    });

    it('masks a key with a quote and a backslash in a delta full of \\n and \\" escapes (text forms, no parse needed)', () => {
      const odd = new SecretScrubber(['sk-"odd\\key-12345']);
      const data = JSON.stringify({ choices: [{ delta: { content: 'line one\nsaid "sk-"odd\\key-12345"\n' } }] });
      const out = odd.event({ data });
      expect(out.data).not.toContain('odd');
      expect(JSON.parse(out.data)).toEqual({ choices: [{ delta: { content: 'line one\nsaid "***"\n' } }] });
    });

    it('masks the key in the event: name and the id, not only in the data', () => {
      const event = { event: `error ${KEY}`, data: '{"ok":true}', id: Buffer.from(KEY).toString('hex').toUpperCase(), retry: null };
      const out = scrubber.event(event);
      expect(out).toEqual({ event: 'error ***', data: '{"ok":true}', id: '***', retry: null });
      expect(scrubber.event({ event: null, data: 'x', id: null })).toEqual({ event: null, data: 'x', id: null });
    });

    it('keeps the exact text of an event with escapes but no key', () => {
      const event = { data: '{"text":"line\\nnext \\u00e9"}' };
      expect(scrubber.event(event)).toBe(event);
    });
  });

  describe('SecretScrubber.partial()', () => {
    it('masks a text end that could still become the key, as value() would not', () => {
      const output = { choices: [{ message: { content: `Your key is ${KEY.slice(0, 12)}` } }], model: 'grok-4' };
      expect(scrubber.value(output)).toBe(output);
      expect(scrubber.partial(output)).toEqual({ choices: [{ message: { content: 'Your key is ***' } }], model: 'grok-4' });
    });

    it('leaves an ending too short to tell from a word, and masks whole keys as value() does', () => {
      expect(scrubber.partial(`ends in ${KEY.slice(0, 3)}`)).toBe(`ends in ${KEY.slice(0, 3)}`);
      expect(scrubber.partial(`a ${KEY} b`)).toBe('a *** b');
    });
  });

  describe('StreamScrubber', () => {
    const run = (pieces: string[]): { shown: string[]; joined: string } => {
      const stream = scrubber.stream();
      const shown = pieces.map((p) => stream.push(p));
      shown.push(stream.end());
      return { shown, joined: shown.join('') };
    };

    it('masks a key split across pieces at every position, and never shows a piece of it', () => {
      const text = `before ${KEY} after`;
      for (let cut = 1; cut < text.length; cut++) {
        for (const cut2 of [cut + 1, cut + 5]) {
          const { shown, joined } = run([text.slice(0, cut), text.slice(cut, cut2), text.slice(cut2)]);
          expect(joined).toBe('before *** after');
          for (const piece of shown) expect(piece.includes(KEY.slice(0, 10))).toBe(false);
        }
      }
    });

    it('masks a base64 echo arriving one character at a time', () => {
      const text = `x ${b64(`user:${KEY}`)} y`;
      expect(scrubber.finds(run([...text]).joined)).toBe(false);
    });

    it('holds nothing back when no tail could start a key', () => {
      expect(run(['Hello, ', 'world'])).toEqual({ shown: ['Hello, ', 'world', ''], joined: 'Hello, world' });
    });

    it('passes pieces through untouched when there is no secret', () => {
      const stream = SecretScrubber.NONE.stream();
      expect(stream.push('s')).toBe('s');
    });
  });
});
