import { describe, expect, it } from 'vitest';
import { EventLogScrubber, scrubEventLog } from '../../../../main/api/event-log-scrubber';
import { SecretScrubber } from '../../../../main/api/secret-scrubber';
import type { CapturedEvent } from '../../../../shared/contract/runs';

const KEY = 'sk-live/9Zq+Tf3LmW7xR2pV8nB4';
const HEX = Buffer.from(KEY).toString('hex');
const scrubber = new SecretScrubber([KEY]);

const chat = (content: string, index = 0): CapturedEvent => ({ t: 1, data: JSON.stringify({ id: 'c1', choices: [{ index, delta: { content } }] }) });
const contents = (events: CapturedEvent[]): string[] => events.map((e) => (JSON.parse(e.data) as { choices: Array<{ delta: { content: string } }> }).choices[0]!.delta.content);
/** Every piece of `text` of at least 6 characters: what must not survive of a key. */
const piecesOf = (text: string): string[] => Array.from({ length: text.length - 5 }, (_, i) => text.slice(i, i + 6));
const leaks = (events: CapturedEvent[], secret: string): string[] => piecesOf(secret).filter((p) => JSON.stringify(events).includes(p));

describe('EventLogScrubber', () => {
  it('masks a key cut over two events in each of them', () => {
    const out = scrubEventLog(scrubber, [chat(`key: ${KEY.slice(0, 10)}`), chat(`${KEY.slice(10)} end`)]);
    expect(contents(out)).toEqual(['key: ***', '*** end']);
    expect(leaks(out, KEY)).toEqual([]);
  });

  it('masks hex of the key cut in three, in upper case, with other events between the pieces', () => {
    const upper = HEX.toUpperCase();
    const log = [chat(`a ${upper.slice(0, 20)}`), { t: 2, data: '{"type":"ping"}' }, chat(upper.slice(20, 40)), { t: 3, event: 'keepalive', data: '{}' }, chat(`${upper.slice(40)} b`)];
    const out = scrubEventLog(scrubber, log);
    expect(out.map((e) => e.t)).toEqual([1, 2, 1, 3, 1]);
    expect(contents([out[0]!, out[2]!, out[4]!])).toEqual(['a ***', '***', '*** b']);
    expect(out[1]).toBe(log[1]);
    expect(leaks(out, upper)).toEqual([]);
  });

  it('masks a key cut over event: names and over data that is not JSON', () => {
    const out = scrubEventLog(scrubber, [
      { t: 1, event: KEY.slice(0, 14), data: `plain ${KEY.slice(0, 5)}` },
      { t: 2, event: KEY.slice(14), data: `${KEY.slice(5)} text` },
    ]);
    expect(out).toEqual([
      { t: 1, event: '***', data: 'plain ***' },
      { t: 2, event: '***', data: '*** text' },
    ]);
  });

  it('does not join texts streamed side by side (another choice), so each key is found whole', () => {
    const out = scrubEventLog(scrubber, [chat(KEY.slice(0, 10), 0), chat(KEY.slice(0, 12), 1), chat(KEY.slice(10), 0), chat(KEY.slice(12), 1)]);
    expect(contents(out)).toEqual(['***', '***', '***', '***']);
  });

  it('holds an event whose end could start a key until the next event settles it, and lets events go in order', () => {
    const log = new EventLogScrubber(scrubber);
    const first = chat(`hello ${KEY.slice(0, 8)}`);
    expect(log.push(first)).toEqual([]);
    expect(log.push({ t: 2, data: '{"type":"ping"}' })).toEqual([]);
    const released = log.push(chat(' and no key after all'));
    expect(released.map((e) => e.t)).toEqual([1, 2, 1]);
    expect(released[0]).toBe(first);
    expect(log.end()).toEqual([]);
  });

  it('flushes what is held with a possible key start of 4 characters or more masked, and still masks the rest when it comes', () => {
    const log = new EventLogScrubber(scrubber);
    expect(log.push(chat(`short ${KEY.slice(0, 3)}`))).toEqual([]);
    expect(log.holding).toBe(true);
    expect(contents(log.flush())).toEqual([`short ${KEY.slice(0, 3)}`]);
    expect(log.push(chat(KEY.slice(3, 12)))).toEqual([]);
    expect(log.holding).toBe(true);
    expect(contents(log.flush())).toEqual(['***']);
    expect(contents(log.push(chat(`${KEY.slice(12)} end`)))).toEqual(['*** end']);
    expect(log.holding).toBe(false);
  });

  it('lets go at the end of what is still held, as it came', () => {
    const log = new EventLogScrubber(scrubber);
    const last = chat(`cut off at ${KEY.slice(0, 8)}`);
    expect(log.push(last)).toEqual([]);
    expect(log.end()).toEqual([last]);
  });

  it('returns events without a key as they are (no re-serialisation), and everything when there is no key', () => {
    const events = [chat('one'), chat('two'), { t: 5, event: 'done', data: '[DONE]' }];
    const out = scrubEventLog(scrubber, events);
    out.forEach((e, i) => expect(e).toBe(events[i]));
    const none = new EventLogScrubber(SecretScrubber.NONE);
    expect(none.push(chat(KEY.slice(0, 9)))).toHaveLength(1);
  });
});
