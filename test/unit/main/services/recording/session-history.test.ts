import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TimelineItem } from '../../../../../shared/contract/history';
import { SecretScrubber } from '../../../../../main/api/secret-scrubber';
import { BlobStore } from '../../../../../main/store/blobs';
import { closeDatabase, openDatabase, type Db } from '../../../../../main/store/db';
import { HistoryService } from '../../../../../main/services/history-service';
import { SessionRecorder } from '../../../../../main/services/recording/session-recorder';
import { newRun } from '../../store/run-fixtures';
import { ramp } from './wav-check';

let dir: string;
let db: Db;
let blobs: BlobStore;
let clockMs = 0;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wb-rec-hist-'));
  db = openDatabase(':memory:');
  blobs = new BlobStore(join(dir, 'blobs'));
  clockMs = 0;
});

afterEach(() => {
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

function open(id: string, scrubber?: SecretScrubber): SessionRecorder {
  const { status: _s, ...run } = newRun(id, 1_700_000_000_000, 'call');
  return SessionRecorder.open({ db, blobs, tracksDir: join(dir, 'tracks'), clock: () => clockMs, scrubber }, { run, kind: 'realtime' });
}

const storedCount = (id: string): number => db.prepare<[string], number>('SELECT event_count FROM runs WHERE id = ?').pluck().get(id)!;

describe('History of a live session', () => {
  it('keeps 50,000 events in chunks written as they come, and pages the timeline (events and marks in one order) anywhere in it', async () => {
    const rec = open('long');
    const marksAt = new Map<number, string>();
    const N = 50_000;
    for (let i = 0; i < N; i++) {
      clockMs = i;
      if (i % 997 === 0) {
        rec.mark(i % 2 ? 'speech_started' : 'speech_stopped', { t: i });
        marksAt.set(i, i % 2 ? 'speech_started' : 'speech_stopped');
      }
      rec.event({ direction: i % 3 === 0 ? 'out' : 'in', kind: 'json', data: `{"n":${i}}` });
      // What is not yet in the database is at most one chunk: the log never gathers in memory.
      if (i % 5_000 === 4_999) expect(i + 1 - storedCount('long')).toBeLessThan(64);
    }
    rec.mark('response_done', { t: N });
    await rec.close();

    const history = new HistoryService(db, blobs);
    const session = await history.session('long');
    expect(session).toMatchObject({ kind: 'realtime', state: 'ended', timelineTotal: N + marksAt.size + 1 });

    // The expected timeline, built the obvious way: each mark just before the event that followed it.
    const label = (item: TimelineItem): string => ('mark' in item ? `mark:${item.mark.type}@${item.mark.t}` : `event:${JSON.parse(item.event.data).n}`);
    const expected: string[] = [];
    for (let i = 0; i < N; i++) {
      if (marksAt.has(i)) expected.push(`mark:${marksAt.get(i)}@${i}`);
      expected.push(`event:${i}`);
    }
    expected.push(`mark:response_done@${N}`);

    for (const [offset, limit] of [[0, 10], [990, 20], [25_000, 500], [N + marksAt.size - 5, 100], [N + marksAt.size + 1, 10]]) {
      const page = history.timeline('long', offset, limit);
      expect(page.total).toBe(expected.length);
      expect(page.items.map(label)).toEqual(expected.slice(offset, offset + limit));
      expect(page.items.map((i) => i.at)).toEqual(page.items.map((_, k) => offset + k));
    }
  }, 60_000);

  it('gives tracks with their URLs, marks and metrics, masks keys in the timeline, and refuses a run that is not a session', async () => {
    const rec = open('call', new SecretScrubber(['sk-secret-key-0123456789']));
    await rec.openTrack('out', { sampleRate: 16_000, name: 'microphone' });
    rec.audio('out', ramp(1_600, 0));
    rec.mark('speech_stopped', { t: 100 });
    rec.event({ direction: 'in', kind: 'json', data: '{"echo":"sk-secret-key-0123456789"}' });
    rec.mark('first_audio', { t: 350 });
    clockMs = 400;
    await rec.close();
    const history = new HistoryService(db, blobs, undefined, undefined, undefined, async (hash) => ({ url: `/media/${hash}`, expiresAt: null, mime: 'audio/wav', size: 0 }));
    const session = await history.session('call');
    expect(session.tracks).toMatchObject([{ direction: 'out', name: 'microphone', durationMs: 100, state: 'closed', media: { url: expect.stringMatching(/^\/media\/[0-9a-f]{64}$/) } }]);
    expect(session.metrics.turns).toMatchObject([{ firstAudioMs: 250 }]);
    const page = history.timeline('call', 0, 10);
    expect(page.items.map((i) => ('mark' in i ? i.mark.type : i.event.kind))).toEqual(['audio', 'speech_stopped', 'json', 'first_audio']);
    expect(JSON.stringify(page)).not.toContain('sk-secret-key-0123456789');

    db.prepare(`INSERT INTO runs (id, created_at, updated_at, endpoint, model, status, connection_id, connection_name, timings_json, request_json)
      VALUES ('text', 1, 1, 'chat.completions', 'm', 'completed', 'c', 'c', '{}', '{}')`).run();
    await expect(history.session('text')).rejects.toMatchObject({ error: { code: 'not_found' } });
    expect(() => history.timeline('text')).toThrow(/not a recorded live session/);
  });
});
