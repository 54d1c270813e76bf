import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BodyLimitError } from '../../../../main/api/limits';
import { SseParser, type SseEvent } from '../../../../main/api/sse';

const enc = new TextEncoder();

function parseWhole(input: string | Uint8Array): SseEvent[] {
  const p = new SseParser();
  return [...p.push(input), ...p.end()];
}

function parseChunks(chunks: (string | Uint8Array)[]): SseEvent[] {
  const p = new SseParser();
  const out: SseEvent[] = [];
  for (const c of chunks) out.push(...p.push(c));
  out.push(...p.end());
  return out;
}

const ev = (data: string, event: string | null = null, id: string | null = null, retry: number | null = null): SseEvent => ({ event, data, id, retry });

describe('sse', () => {
  describe('SseParser.push()', () => {
    it('parses data-only frames as OpenAI-style chat streams send them', () => {
      expect(parseWhole('data: {"a":1}\n\ndata: [DONE]\n\n')).toEqual([ev('{"a":1}'), ev('[DONE]')]);
    });

    it('returns each event from the chunk that completes it', () => {
      const p = new SseParser();
      expect(p.push('data: one\n')).toEqual([]);
      expect(p.push('\ndata: tw')).toEqual([ev('one')]);
      expect(p.push('o\n\n')).toEqual([ev('two')]);
    });

    it.each([
      ['LF', 'data: a\n\ndata: b\n\n'],
      ['CR', 'data: a\r\rdata: b\r\r'],
      ['CRLF', 'data: a\r\n\r\ndata: b\r\n\r\n'],
      ['mixed', 'data: a\r\n\ndata: b\r\r\n'],
    ])('accepts %s line ends', (_name, input) => {
      expect(parseWhole(input)).toEqual([ev('a'), ev('b')]);
    });

    it('treats a CRLF split across chunks as one line end', () => {
      expect(parseChunks(['data: a\r', '\ndata: b\r', '\n\r', '\n'])).toEqual([ev('a\nb')]);
    });

    it('joins multi-line data with newlines and keeps event names and ids', () => {
      expect(parseWhole('event: message_start\nid: 7\ndata: line 1\ndata: line 2\n\n')).toEqual([ev('line 1\nline 2', 'message_start', '7')]);
    });

    it('keeps the last event id for later events and reads retry only in its own block', () => {
      expect(parseWhole('id: 1\nretry: 3000\ndata: a\n\ndata: b\n\nretry: x\ndata: c\n\n')).toEqual([ev('a', null, '1', 3000), ev('b', null, '1'), ev('c', null, '1')]);
    });

    it('ignores comments, unknown fields and ids containing NUL', () => {
      expect(parseWhole(': keep-alive\nfoo: bar\nid: a\0b\ndata: x\n\n')).toEqual([ev('x')]);
    });

    it('strips one space after the colon, only one', () => {
      expect(parseWhole('data:no-space\n\ndata:  two-spaces\n\n')).toEqual([ev('no-space'), ev(' two-spaces')]);
    });

    it('treats a field without a colon as having an empty value', () => {
      expect(parseWhole('data\n\ndata\ndata\n\n')).toEqual([ev(''), ev('\n')]);
    });

    it('does not dispatch a block without data, and forgets its event name', () => {
      expect(parseWhole('event: ping\n\ndata: x\n\n')).toEqual([ev('x')]);
    });

    it('drops a byte order mark at the start only', () => {
      expect(parseWhole('\uFEFFdata: a\n\ndata: \uFEFFb\n\n')).toEqual([ev('a'), ev('\uFEFFb')]);
      expect(parseWhole(new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode('data: a\n\n')]))).toEqual([ev('a')]);
    });

    it('decodes multi-byte characters split across byte chunks', () => {
      const bytes = enc.encode('data: héllo 世界 🎉\n\n');
      const chunks = Array.from(bytes, (b) => new Uint8Array([b]));
      expect(parseChunks(chunks)).toEqual([ev('héllo 世界 🎉')]);
    });
  });

  describe('SseParser.end()', () => {
    it('dispatches a complete last event that lacks the final blank line', () => {
      expect(parseWhole('data: a\n\ndata: [DONE]\n')).toEqual([ev('a'), ev('[DONE]')]);
    });

    it('discards an unterminated last line, which may be truncated', () => {
      expect(parseWhole('data: a\n\ndata: {"trunc')).toEqual([ev('a')]);
    });
  });

  describe('chunking invariance (property)', () => {
    // Streams built from SSE lines (fields, comments, blank lines) with random line ends, so
    // chunk boundaries land inside CRLF pairs, field names, data values and multi-byte characters.
    const value = fc.array(fc.constantFrom('x', '12', 'é', '世', '🎉', '\uFEFF', ' ', ':', '[DONE]', '{"a":1}'), { maxLength: 5 }).map((v) => v.join(''));
    const line = fc.oneof(
      fc.tuple(fc.constantFrom('data', 'data', 'event', 'id', 'retry', 'foo'), fc.constantFrom('', ':', ': '), value).map((p) => p.join('')),
      value.map((v) => `:${v}`),
      fc.constant(''),
    );
    const lineEnd = fc.constantFrom('\n', '\r', '\r\n');
    const stream = fc
      .tuple(fc.boolean(), fc.array(fc.tuple(line, lineEnd), { maxLength: 25 }), value)
      .map(([bom, lines, tail]) => `${bom ? '\uFEFF' : ''}${lines.map(([l, e]) => l + e).join('')}${tail}`);

    /** Random cut points, or (one time in four) a cut at every position. */
    function cuts(length: number) {
      const every = Array.from({ length }, (_, i) => i);
      const some = fc.uniqueArray(fc.integer({ min: 0, max: length }), { maxLength: 40 }).map((xs) => [...xs].sort((a, b) => a - b));
      return fc.oneof({ arbitrary: some, weight: 3 }, { arbitrary: fc.constant(every), weight: 1 });
    }

    function split<T extends string | Uint8Array>(whole: T, at: number[]): T[] {
      const out: T[] = [];
      let prev = 0;
      for (const c of [...at, whole.length]) {
        out.push(whole.slice(prev, c) as T);
        prev = c;
      }
      return out;
    }

    it('yields the same events for any split of the bytes', () => {
      fc.assert(
        fc.property(
          stream.chain((s) => {
            const bytes = enc.encode(s);
            return fc.tuple(fc.constant(bytes), cuts(bytes.length));
          }),
          ([bytes, at]) => {
            expect(parseChunks(split(bytes, at))).toEqual(parseWhole(bytes));
          },
        ),
        { numRuns: 500 },
      );
    });

    it('yields the same events for any split of the text', () => {
      fc.assert(
        fc.property(
          stream.chain((s) => fc.tuple(fc.constant(s), cuts(s.length))),
          ([text, at]) => {
            expect(parseChunks(split(text, at))).toEqual(parseWhole(text));
          },
        ),
        { numRuns: 500 },
      );
    });

    it('gives the same events for the bytes as for the text they encode', () => {
      fc.assert(
        fc.property(stream, (text) => {
          expect(parseWhole(enc.encode(text))).toEqual(parseWhole(text));
        }),
        { numRuns: 300 },
      );
    });
  });

  describe('linear time', () => {
    // A quadratic parser (re-scanning or re-joining the pending line per chunk) would need ~10^13
    // steps here and never finish within the test timeout; a linear one needs ~10^7.
    it('parses a 5 MB single event fed one byte at a time', () => {
      const size = 5 * 1024 * 1024;
      const payload = 'x'.repeat(size);
      const bytes = enc.encode(`data: ${payload}\n\n`);
      const p = new SseParser();
      const out: SseEvent[] = [];
      for (let i = 0; i < bytes.length; i++) {
        const events = p.push(bytes.subarray(i, i + 1));
        if (events.length) out.push(...events);
      }
      expect(out).toHaveLength(1);
      expect(out[0].data.length).toBe(size);
    });

    it('parses a 5 MB single event fed one character at a time', () => {
      const size = 5 * 1024 * 1024;
      const text = `data: ${'y'.repeat(size)}\n\n`;
      const p = new SseParser();
      let got: SseEvent | null = null;
      for (let i = 0; i < text.length; i++) {
        const events = p.push(text[i]);
        if (events.length) got = events[0];
      }
      expect(got?.data.length).toBe(size);
    });
  });

  describe('SseParser(maxChars)', () => {
    /** Feeds `text` cut at every position into a parser holding at most `max` characters. */
    const feedSplit = (text: string, max: number, at: number): SseEvent[] => {
      const p = new SseParser(max);
      return [...p.push(text.slice(0, at)), ...p.push(text.slice(at)), ...p.end()];
    };

    it('takes lines and events up to the cap, at any chunk boundary', () => {
      const text = 'data: 1234\n\n: abcdefgh\ndata: 12\ndata: 345\n\n';
      for (let at = 0; at <= text.length; at++) {
        expect(feedSplit(text, 10, at).map((e) => e.data)).toEqual(['1234', '12\n345']);
      }
    });

    it('throws a BodyLimitError for a longer line, whole or split, and for an event whose lines add up past it', () => {
      for (const text of ['data: 12345\n\n', ': a comment longer\n', 'data:12345\ndata:12345\n\n']) {
        for (let at = 0; at <= text.length; at++) {
          expect(() => feedSplit(text, 10, at)).toThrow(BodyLimitError);
        }
      }
    });

    it('does not hold an unterminated line past the cap', () => {
      const p = new SseParser(1000);
      p.push('data: ');
      expect(() => {
        for (let i = 0; i < 100; i++) p.push('x'.repeat(100));
      }).toThrow('The service sent a single stream event of more than 1000 bytes');
    });
  });
});
