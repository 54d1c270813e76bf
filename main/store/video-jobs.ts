/**
 * Video jobs as the job centre reads them: the `jobs` rows of kind `video` with their data and
 * result, grouped into cards (a Retry is a new job carrying the same `cardId`; a card shows its
 * latest job). Dismissing a card marks its jobs' data; nothing is deleted (History keeps the runs,
 * the gallery the videos).
 */
import type { JobSummary } from '../../shared/contract/jobs';
import type { Db } from './db';
import { SUMMARY_COLUMNS, toSummary, type JobRow } from './jobs';
import { prepare, timed } from './query';

export const VIDEO_JOB_KIND = 'video';

/** A video job row: its summary, its data and (once finished) its result, parsed. */
export interface VideoJobRow {
  summary: JobSummary;
  data: unknown;
  result: unknown;
}

const COLUMNS = `${SUMMARY_COLUMNS}, data_json, result_json`;
const parse = (text: string | null): unknown => (text === null ? null : JSON.parse(text));
const toRow = (row: JobRow): VideoJobRow => ({ summary: toSummary(row), data: parse(row.data_json), result: parse(row.result_json) });

export function getVideoJobRow(db: Db, id: string): VideoJobRow | null {
  const row = prepare<[string, string], JobRow>(db, `SELECT ${COLUMNS} FROM jobs WHERE id = ? AND kind = ?`).get(id, VIDEO_JOB_KIND);
  return row ? toRow(row) : null;
}

/** The latest job of each card not dismissed, newest first. */
export function latestVideoJobs(db: Db, limit: number): VideoJobRow[] {
  return timed(db, 'latestVideoJobs', () =>
    prepare<[string, number], JobRow>(
      db,
      `SELECT ${COLUMNS} FROM (
         SELECT *, ROW_NUMBER() OVER (PARTITION BY json_extract(data_json, '$.cardId') ORDER BY created_at DESC, rowid DESC) AS nth
         FROM jobs WHERE kind = ?
       ) WHERE nth = 1 AND COALESCE(json_extract(data_json, '$.dismissed'), 0) = 0
       ORDER BY created_at DESC, id DESC LIMIT ?`,
    )
      .all(VIDEO_JOB_KIND, limit)
      .map(toRow),
  );
}

/** The job whose video became gallery item `galleryId`, or null. */
export function videoJobOfGalleryItem(db: Db, galleryId: string): VideoJobRow | null {
  const row = prepare<[string, string], JobRow>(
    db,
    `SELECT ${COLUMNS} FROM jobs WHERE kind = ? AND json_extract(result_json, '$.galleryId') = ? ORDER BY created_at DESC LIMIT 1`,
  ).get(VIDEO_JOB_KIND, galleryId);
  return row ? toRow(row) : null;
}

/** Marks every job of card `cardId` dismissed; returns how many. */
export function dismissVideoCard(db: Db, cardId: string): number {
  return timed(db, 'dismissVideoCard', () =>
    prepare(
      db,
      `UPDATE jobs SET data_json = json_set(data_json, '$.dismissed', json('true'))
       WHERE kind = ? AND json_extract(data_json, '$.cardId') = ?`,
    ).run(VIDEO_JOB_KIND, cardId).changes,
  );
}
