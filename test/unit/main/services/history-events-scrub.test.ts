/**
 * history.events and the export of a run recorded before keys were masked across events (its log
 * still holds a key in pieces): every page, even one whose edge falls between the pieces, and the
 * export hand out the log masked with every saved key.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SecretScrubber } from '../../../../main/api/secret-scrubber';
import { HistoryService } from '../../../../main/services/history-service';
import { closeDatabase, openDatabase, type Db } from '../../../../main/store/db';
import { appendRunEvents } from '../../../../main/store/run-events';
import { insertRun } from '../../../../main/store/runs';
import type { CapturedEvent } from '../../../../shared/contract/runs';
import { newRun } from '../store/run-fixtures';

const KEY = 'sk-history-Secret-0123456789';
const delta = (t: number, text: string): CapturedEvent => ({ t, data: JSON.stringify({ type: 'response.output_text.delta', delta: text }) });
/** 10 events; the key cut over events 4 and 5, with a ping between. */
const LOG: CapturedEvent[] = [
  ...[0, 1, 2, 3].map((t) => delta(t, `word ${t} `)),
  delta(4, `the key ${KEY.slice(0, 14)}`),
  { t: 5, data: '{"type":"ping"}' },
  delta(6, `${KEY.slice(14)} again`),
  ...[7, 8, 9].map((t) => delta(t, `word ${t} `)),
];

describe('HistoryService.events() and the export of a log holding a key in pieces', () => {
  let db: Db;
  let history: HistoryService;
  beforeEach(() => {
    db = openDatabase(':memory:');
    insertRun(db, newRun('old', 1, 'hi'));
    appendRunEvents(db, 'old', LOG);
    history = new HistoryService(db, undefined, undefined, undefined, () => new SecretScrubber([KEY]));
  });
  afterEach(() => closeDatabase(db));

  const pieces = [KEY.slice(0, 14), KEY.slice(14)];
  const leaked = (v: unknown): string[] => pieces.filter((p) => JSON.stringify(v).includes(p));

  it('masks both pieces on the whole log and on every page, whatever its edges', () => {
    const whole = history.events('old', 0, 100);
    expect(whole.total).toBe(10);
    expect(whole.events.map((e) => e.t)).toEqual(LOG.map((e) => e.t));
    expect(whole.events[4]).toEqual(delta(4, 'the key ***'));
    expect(whole.events[6]).toEqual(delta(6, '*** again'));
    for (let offset = 0; offset < 10; offset++) {
      for (const limit of [1, 2, 3]) {
        const page = history.events('old', offset, limit);
        expect(page.offset).toBe(offset);
        expect(page.events.map((e) => e.t)).toEqual(LOG.slice(offset, offset + limit).map((e) => e.t));
        expect(leaked(page)).toEqual([]);
      }
    }
  });

  it('is what the store holds (the scan would see the pieces without the masking)', () => {
    expect(leaked(LOG)).toEqual(pieces);
  });
});
