import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../../../shared/contract/runs';
import { closeDatabase, openDatabase, type Db } from '../../../../main/store/db';
import {
  deleteRun,
  getRun,
  insertRun,
  INTERRUPTED_ERROR,
  markInterruptedRuns,
  searchRuns,
  updateRun,
} from '../../../../main/store/runs';
import { insertJob, updateJob } from '../../../../main/store/jobs';
import { completion, newRun, usage } from './run-fixtures';

describe('runs', () => {
  let db: Db;
  beforeEach(() => {
    db = openDatabase(':memory:');
  });
  afterEach(() => closeDatabase(db));

  describe('insertRun()', () => {
    it('records a pending run with previews and empty results', () => {
      const run = newRun('r1', 1_000, 'What is the capital of France?');
      insertRun(db, run);
      expect(getRun(db, 'r1')).toEqual({
        id: 'r1',
        createdAt: 1_000,
        endpoint: 'chat.completions',
        model: 'grok-4',
        status: 'pending',
        connectionId: 'sandbox',
        connectionName: 'Sandbox',
        isSandbox: true,
        promptPreview: 'What is the capital of France?',
        outputPreview: '',
        costTicks: null,
        totalMs: null,
        totalTokens: null,
        deferredRequestId: null,
        group: null,
        made: null,
        request: run.request,
        response: null,
        eventCount: 0,
        output: null,
        error: null,
        timings: { startedAt: 1_000, ttfbMs: null, totalMs: null },
        usage: null,
        retries: 0,
        metrics: { firstTokenMs: null, firstTokenIsFirstByte: false, tokensPerSecond: null, totalMs: null, inputTokens: null, outputTokens: null, reasoningTokens: null, costTicks: null },
      } satisfies RunRecord);
    });

    it('records the comparison a run is part of, and lists it with the run', () => {
      insertRun(db, { ...newRun('c1', 1_000, 'same prompt'), group: { kind: 'compare', id: 'cmp-1' } });
      insertRun(db, { ...newRun('c2', 1_001, 'same prompt'), group: { kind: 'compare', id: 'cmp-1' } });
      insertRun(db, newRun('solo', 1_002, 'alone'));
      expect(searchRuns(db, {}).items.map((r) => [r.id, r.group])).toEqual([
        ['solo', null],
        ['c2', { kind: 'compare', id: 'cmp-1' }],
        ['c1', { kind: 'compare', id: 'cmp-1' }],
      ]);
      expect(getRun(db, 'c1')?.group).toEqual({ kind: 'compare', id: 'cmp-1' });
    });

    it('refuses a second run with the same id', () => {
      insertRun(db, newRun('r1', 1_000, 'first'));
      expect(() => insertRun(db, newRun('r1', 2_000, 'second'))).toThrow(/UNIQUE/);
      expect(getRun(db, 'r1')?.promptPreview).toBe('first');
    });
  });

  describe('updateRun()', () => {
    it('round-trips every field of a finished run', () => {
      const run = newRun('r1', 1_000, 'Say hi', { connectionId: 'work', connectionName: 'Work', isSandbox: false });
      insertRun(db, run);
      const output = completion('Hi there!', 'The user wants a greeting.');
      const updated = updateRun(db, 'r1', {
        status: 'completed',
        model: 'grok-4-0709',
        response: { status: 200, headers: { 'x-request-id': 'req-9' }, body: null },
        output,
        outputText: 'The user wants a greeting.\nHi there!',
        timings: { startedAt: 1_000, ttfbMs: 120, totalMs: 180 },
        usage: usage(10, 5),
        costTicks: 1234,
        retries: 1,
      });
      expect(updated).toBe(true);
      expect(getRun(db, 'r1')).toEqual({
        id: 'r1',
        createdAt: 1_000,
        endpoint: 'chat.completions',
        model: 'grok-4-0709',
        status: 'completed',
        connectionId: 'work',
        connectionName: 'Work',
        isSandbox: false,
        promptPreview: 'Say hi',
        outputPreview: 'Hi there!',
        costTicks: 1234,
        totalMs: 180,
        totalTokens: 15,
        deferredRequestId: null,
        group: null,
        made: null,
        request: run.request,
        response: { status: 200, headers: { 'x-request-id': 'req-9' }, body: null },
        eventCount: 0,
        output,
        error: null,
        timings: { startedAt: 1_000, ttfbMs: 120, totalMs: 180 },
        usage: usage(10, 5),
        retries: 1,
        // No first-token time kept: the first byte stands in, and the rate is over the whole run.
        metrics: { firstTokenMs: 120, firstTokenIsFirstByte: true, tokensPerSecond: 5_000 / 180, totalMs: 180, inputTokens: 10, outputTokens: 5, reasoningTokens: 0, costTicks: 1234 },
      } satisfies RunRecord);
    });

    it('leaves fields it is not given as they were', () => {
      insertRun(db, newRun('r1', 1_000, 'keep'));
      updateRun(db, 'r1', { status: 'completed', outputText: 'kept answer', costTicks: 7 });
      updateRun(db, 'r1', { retries: 2 });
      const record = getRun(db, 'r1');
      expect(record).toMatchObject({ status: 'completed', outputPreview: 'kept answer', costTicks: 7, retries: 2 });
    });

    it('clears nullable fields set to null', () => {
      insertRun(db, newRun('r1', 1_000, 'clear'));
      updateRun(db, 'r1', { error: { code: 'network', message: 'refused' }, usage: usage(1, 1) });
      updateRun(db, 'r1', { error: null, usage: null });
      expect(getRun(db, 'r1')).toMatchObject({ error: null, usage: null, totalTokens: null });
    });

    it('records an error run with its service details', () => {
      insertRun(db, newRun('r1', 1_000, 'fail'));
      const error = { code: 'api_error' as const, message: 'Rate limited; retry in 3 s.', status: 429, requestId: 'req-1' };
      updateRun(db, 'r1', { status: 'error', error, response: { status: 429, headers: { 'retry-after': '3' }, body: { error: 'slow down' } } });
      expect(getRun(db, 'r1')).toMatchObject({ status: 'error', error, response: { status: 429, body: { error: 'slow down' } } });
    });

    it('returns false and writes nothing when the run does not exist', () => {
      expect(updateRun(db, 'missing', { status: 'completed' })).toBe(false);
      expect(getRun(db, 'missing')).toBeNull();
    });

    it('keeps the preview when an output that is not a chat answer is updated alone (a re-priced call)', () => {
      insertRun(db, newRun('r1', 1_000, 'call'));
      updateRun(db, 'r1', { output: { turns: 2 }, outputText: 'Hello caller. How can I help?', outputPreview: 'Hello caller.' });
      updateRun(db, 'r1', { output: { turns: 2, cost: 5 }, costTicks: 5 });
      expect(getRun(db, 'r1')).toMatchObject({ outputPreview: 'Hello caller.', output: { turns: 2, cost: 5 }, costTicks: 5 });
      updateRun(db, 'r1', { output: null });
      expect(getRun(db, 'r1')?.outputPreview).toBe('Hello caller.');
    });

    it('derives the preview from a chat answer given alone, and from new output text', () => {
      insertRun(db, newRun('r1', 1_000, 'greet'));
      updateRun(db, 'r1', { outputText: 'partial' });
      updateRun(db, 'r1', { output: completion('Hi there!') });
      expect(getRun(db, 'r1')?.outputPreview).toBe('Hi there!');
      updateRun(db, 'r1', { outputText: 'Bye now' });
      expect(getRun(db, 'r1')?.outputPreview).toBe('Bye now');
    });

    it('makes the new output searchable and the replaced output unsearchable', () => {
      insertRun(db, newRun('r1', 1_000, 'tell me a colour'));
      updateRun(db, 'r1', { outputText: 'turquoise so far' });
      updateRun(db, 'r1', { outputText: 'vermilion in the end' });
      expect(searchRuns(db, { query: 'vermilion' }).items.map((r) => r.id)).toEqual(['r1']);
      expect(searchRuns(db, { query: 'turquoise' }).items).toEqual([]);
    });
  });

  describe('getRun()', () => {
    it('returns null for an unknown id', () => {
      expect(getRun(db, 'nope')).toBeNull();
    });
  });

  describe('deleteRun()', () => {
    it('removes the run from the record, the list and full-text search', () => {
      insertRun(db, newRun('r1', 1_000, 'ephemeral aardvark'));
      insertRun(db, newRun('r2', 2_000, 'lasting aardvark'));
      expect(deleteRun(db, 'r1')).toBe(true);
      expect(getRun(db, 'r1')).toBeNull();
      expect(searchRuns(db, {}).items.map((r) => r.id)).toEqual(['r2']);
      expect(searchRuns(db, { query: 'aardvark' }).items.map((r) => r.id)).toEqual(['r2']);
      expect(searchRuns(db, { query: 'ephemeral' }).items).toEqual([]);
    });

    it('returns false when there was nothing to delete', () => {
      expect(deleteRun(db, 'never')).toBe(false);
    });
  });

  describe('markInterruptedRuns()', () => {
    it('marks runs left pending by a crash as incomplete, but not those a job carries or finished ones', () => {
      insertRun(db, newRun('crashed', 1_000, 'a'));
      insertJob(db, { id: 'job-1', kind: 'deferred-chat', data: {}, runId: 'deferred', createdAt: 2_000 }, (d) =>
        insertRun(d, newRun('deferred', 2_000, 'b')),
      );
      insertJob(db, { id: 'job-2', kind: 'deferred-chat', data: {}, runId: 'job-ended', createdAt: 2_500 }, (d) =>
        insertRun(d, newRun('job-ended', 2_500, 'b', { deferredRequestId: 'def-2' })),
      );
      updateJob(db, 'job-2', { state: 'failed' }, 2_600);
      insertRun(db, newRun('done', 3_000, 'c'));
      updateRun(db, 'done', { status: 'completed' });

      expect(markInterruptedRuns(db, 9_000)).toBe(2);
      expect(getRun(db, 'crashed')).toMatchObject({ status: 'incomplete', error: INTERRUPTED_ERROR });
      expect(getRun(db, 'job-ended')).toMatchObject({ status: 'incomplete' });
      expect(getRun(db, 'deferred')).toMatchObject({ status: 'pending', error: null });
      expect(getRun(db, 'done')).toMatchObject({ status: 'completed', error: null });
      expect(INTERRUPTED_ERROR.message).toMatch(/app stopped/);
    });

    it('finds nothing to mark on a second start', () => {
      insertRun(db, newRun('crashed', 1_000, 'a'));
      markInterruptedRuns(db, 9_000);
      expect(markInterruptedRuns(db, 10_000)).toBe(0);
    });
  });
});
