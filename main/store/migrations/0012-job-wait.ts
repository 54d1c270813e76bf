/**
 * 0012: a job that waits out an outage says so, across restarts. `jobs.wait_json` holds, while
 * transient failures follow one another (the network down, 5xx, 429), since when the job has been
 * waiting, how many attempts failed in a row, why, and when the next attempt is due; it is NULL
 * once the service answers again. A restart resumes the wait where it was instead of failing the
 * job or starting its backoff over.
 */
import type { Migration } from './migration';

export const migration0012: Migration = {
  version: 12,
  name: 'job-wait',
  up(db) {
    db.exec('ALTER TABLE jobs ADD COLUMN wait_json TEXT');
  },
};
