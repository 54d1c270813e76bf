import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SecretScrubber } from '../../../../main/api/secret-scrubber';
import { CHUNK_EVENTS, CHUNK_MS, RunRecorder } from '../../../../main/services/run-recorder';
import { closeDatabase, openDatabase, type Db } from '../../../../main/store/db';
import { readRunEvents } from '../../../../main/store/run-events';
import { getRun, markInterruptedRuns } from '../../../../main/store/runs';
import { newRun } from '../store/run-fixtures';

const ev = (i: number) => ({ t: i, data: `{"n":${i}}` });
const chunkCount = (db: Db) => db.prepare<[], number>('SELECT COUNT(*) FROM run_event_chunks').pluck().get();

describe('RunRecorder', () => {
  let db: Db;
  beforeEach(() => {
    vi.useFakeTimers();
    db = openDatabase(':memory:');
  });
  afterEach(() => {
    vi.useRealTimers();
    closeDatabase(db);
  });

  describe('event()', () => {
    it('writes a chunk every CHUNK_EVENTS events without waiting for the end', () => {
      const rec = RunRecorder.start(db, newRun('r1', 1, 'hi'));
      for (let i = 0; i < CHUNK_EVENTS * 2 + 5; i++) rec.event(ev(i));
      expect(chunkCount(db)).toBe(2);
      expect(getRun(db, 'r1')?.eventCount).toBe(CHUNK_EVENTS * 2);
    });

    it('writes a slow stream CHUNK_MS after its first buffered event', () => {
      const rec = RunRecorder.start(db, newRun('r1', 1, 'hi'));
      rec.event(ev(0));
      rec.event(ev(1));
      expect(chunkCount(db)).toBe(0);
      vi.advanceTimersByTime(CHUNK_MS);
      expect(readRunEvents(db, 'r1')?.events).toEqual([ev(0), ev(1)]);
    });

    it('keeps the events recorded so far when the app stops mid-run', () => {
      const rec = RunRecorder.start(db, newRun('r1', 1, 'hi'));
      for (let i = 0; i < 70; i++) rec.event(ev(i));
      vi.advanceTimersByTime(CHUNK_MS);
      // No finish(): the process died. The next start marks the run and its log is still there.
      markInterruptedRuns(db, 2);
      expect(getRun(db, 'r1')).toMatchObject({ status: 'incomplete', eventCount: 70 });
      expect(readRunEvents(db, 'r1')?.events).toHaveLength(70);
    });
  });

  describe('finish()', () => {
    it('writes the last events with the end state and stops the timer', () => {
      const rec = RunRecorder.start(db, newRun('r1', 1, 'hi'));
      for (let i = 0; i < 3; i++) rec.event(ev(i));
      const record = rec.finish({ status: 'completed' });
      expect(record).toMatchObject({ status: 'completed', eventCount: 3 });
      vi.advanceTimersByTime(CHUNK_MS * 4);
      expect(chunkCount(db)).toBe(1);
    });
  });

  describe('a key in the events', () => {
    const KEY = 'sk-recorder-Secret-0123456789';
    const scrubber = new SecretScrubber([KEY]);
    const delta = (t: number, text: string) => ({ t, data: JSON.stringify({ delta: text }) });

    it('stores no event name with the key, and no piece of a key cut over events; a held event waits for the next', () => {
      const rec = RunRecorder.start(db, newRun('r1', 1, 'hi'), Date.now, undefined, scrubber);
      rec.event({ t: 0, event: `named ${KEY}`, data: '{}' });
      rec.event(delta(1, `key ${KEY.slice(0, 15)}`));
      rec.event(delta(2, `${KEY.slice(15)} done`));
      rec.finish({ status: 'completed' });
      const stored = readRunEvents(db, 'r1')!.events;
      expect(stored).toEqual([{ t: 0, event: 'named ***', data: '{}' }, delta(1, 'key ***'), delta(2, '*** done')]);
      expect(getRun(db, 'r1')?.eventCount).toBe(3);
    });

    it('writes an event held past CHUNK_MS with its possible key start masked, and masks the rest when it comes', () => {
      const rec = RunRecorder.start(db, newRun('r1', 1, 'hi'), Date.now, undefined, scrubber);
      rec.event(delta(1, `key ${KEY.slice(0, 15)}`));
      vi.advanceTimersByTime(CHUNK_MS - 1);
      expect(chunkCount(db)).toBe(0);
      vi.advanceTimersByTime(1);
      // A crash now keeps the event (at most CHUNK_MS are lost), without the piece of the key.
      expect(readRunEvents(db, 'r1')?.events).toEqual([delta(1, 'key ***')]);
      rec.event(delta(2, `${KEY.slice(15)} done`));
      rec.finish({ status: 'completed' });
      expect(readRunEvents(db, 'r1')?.events).toEqual([delta(1, 'key ***'), delta(2, '*** done')]);
    });

    it('writes at the end an event still held', () => {
      const rec = RunRecorder.start(db, newRun('r1', 1, 'hi'), Date.now, undefined, scrubber);
      rec.event(delta(1, `cut ${KEY.slice(0, 6)}`));
      rec.finish({ status: 'incomplete' });
      expect(readRunEvents(db, 'r1')?.events).toEqual([delta(1, `cut ${KEY.slice(0, 6)}`)]);
    });
  });
});
