/**
 * A service that echoes the API key back (security defect 1 of issue 8): chat, Messages,
 * Responses and completions runs against a fake service on loopback that puts the key in every
 * shape into error messages, a response header, 200 bodies and SSE frames (whole and split over
 * frames). Afterwards nothing the app wrote (every file of the data folder but the key store: the
 * database, its WAL, the event chunks decompressed, the log) and nothing it sent to the page
 * (chunks, answers, errors, events, History and the inspector) holds the key in any form. Each
 * scan is shown to find a planted echo, so it can fail.
 */
import Database from 'better-sqlite3';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../../main/app';
import { secretForms } from '../../../main/api/secret-scrubber';
import { createLogger, type Logger } from '../../../main/host/log-file';
import { createFileKeyStore } from '../../../main/store/key-file';
import { decodeEventChunk, encodeEventChunk } from '../../../main/store/run-event-codec';
import { appendRunEvents } from '../../../main/store/run-events';
import { insertRun, updateRun } from '../../../main/store/runs';
import { newRun } from '../../unit/main/store/run-fixtures';
import type { TextStreamChunk } from '../../../shared/contract/text';
import { echoShapes, startEchoService, type EchoService } from './echo-service';
import { runText } from './text-run-helper';

const KEY = 'sk-echo/Secret+Key_0123456789abcdefXYZ';
const CTX = { sessionId: 'test', signal: new AbortController().signal };
/** Every shape echoed, every form the scrubber knows, and each of those JSON-escaped once more. */
const FORMS = [...new Set([...echoShapes(KEY), ...secretForms(KEY)].flatMap((f) => [f, JSON.stringify(f).slice(1, -1)]))];

/** Which forms of the key `text` holds. */
function hits(text: string): string[] {
  return FORMS.filter((f) => text.includes(f));
}

/** Every file under `dir` but the key store, as text (binary pages read as latin1: the key is ASCII). */
function filesOf(dir: string): Array<{ path: string; text: string }> {
  const out: Array<{ path: string; text: string }> = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesOf(path));
    else if (name !== 'keys.json') out.push({ path, text: readFileSync(path).toString('latin1') });
  }
  return out;
}

/** The decompressed text of every event chunk in the database (what the raw file scan cannot read). */
function eventChunksOf(dbPath: string): string {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT data FROM run_event_chunks').all() as Array<{ data: Buffer }>;
    return rows.map((r) => JSON.stringify(decodeEventChunk(r.data))).join('\n');
  } finally {
    db.close();
  }
}

/** Where each form was found: `[]` when the data folder and the page traffic are clean. */
function scan(dataDir: string, traffic: unknown[]): string[] {
  const found: string[] = [];
  for (const file of filesOf(dataDir)) for (const f of hits(file.text)) found.push(`${file.path}: ${f}`);
  for (const f of hits(eventChunksOf(join(dataDir, 'workbench.db')))) found.push(`event chunks: ${f}`);
  for (const f of hits(JSON.stringify(traffic))) found.push(`page traffic: ${f}`);
  return found;
}

/**
 * The text the page shows from a run's deltas: content, reasoning and each tool call's arguments
 * joined as the renderer joins them (a key split over deltas is whole here).
 */
function pageView(chunks: TextStreamChunk[]): Record<string, string> {
  const view: Record<string, string> = {};
  for (const c of chunks) {
    if (c.type !== 'delta') continue;
    const add = (k: string, v: string | undefined) => void (view[k] = (view[k] ?? '') + (v ?? ''));
    add(`${c.choice}:content`, c.content);
    add(`${c.choice}:reasoning`, c.reasoning);
    for (const call of c.toolCalls ?? []) add(`${c.choice}:tool:${call.index ?? call.id}`, call.function?.arguments);
  }
  return view;
}

const FAMILIES = [
  { name: 'chat', send: (app: App) => app.handlers.chat.send, request: (stream: boolean) => ({ model: 'echo-1', messages: [{ role: 'user', content: 'hi' }], stream }) },
  { name: 'messages', send: (app: App) => app.handlers.messages.send, request: (stream: boolean) => ({ model: 'echo-1', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }], stream }) },
  { name: 'responses', send: (app: App) => app.handlers.responses.create, request: (stream: boolean) => ({ model: 'echo-1', input: 'hi', stream }) },
  { name: 'completions', send: (app: App) => app.handlers.completions.send, request: (stream: boolean) => ({ model: 'echo-1', prompt: 'hi', max_tokens: 20, stream }) },
] as const;

const RUNS = [
  { mode: 'ok', stream: true },
  { mode: 'ok', stream: false },
  { mode: 'error', stream: true },
  { mode: 'error', stream: false },
  { mode: 'error-frame', stream: true },
] as const;

describe('a service that echoes the API key', () => {
  let service: EchoService;
  let dataDir: string;
  let logger: Logger;
  let app: App;
  let connectionId: string;
  /** Everything the page was sent: chunks, answers, thrown errors, events. */
  const traffic: unknown[] = [];

  const record = async (what: () => unknown): Promise<void> => {
    try {
      traffic.push(await what());
    } catch (error) {
      traffic.push(error instanceof Error ? { ...error, message: error.message } : error);
    }
  };

  beforeAll(async () => {
    service = await startEchoService();
    dataDir = mkdtempSync(join(tmpdir(), 'wb-echo-'));
    logger = createLogger({ dir: join(dataDir, 'logs'), stderr: false });
    app = await createApp({
      dataDir,
      shell: 'browser',
      keyStore: createFileKeyStore(join(dataDir, 'keys.json')),
      emit: (channel, payload) => traffic.push({ channel, payload }),
      log: logger.line,
      addSecret: logger.addSecret,
      version: 'test',
      sandboxTokenDelayMs: 0,
    });
    connectionId = (await app.handlers.connections.save({ name: 'Echo', baseUrl: service.baseUrl, apiKey: KEY }, CTX)).id;
  });

  afterAll(async () => {
    await app?.dispose();
    logger?.close();
    await service?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the key out of the database, its WAL, the log and everything sent to the page', async () => {
    const runIds: string[] = [];
    for (const family of FAMILIES) {
      for (const run of RUNS) {
        const input = { connectionId, request: family.request(run.stream), headers: { 'x-echo-mode': run.mode } };
        const { record: rec, chunks } = await runText(family.send(app) as never, input);
        traffic.push(rec, chunks, pageView(chunks as TextStreamChunk[]));
        runIds.push(rec.id);
        expect(rec.status, `${family.name} ${run.mode} stream=${run.stream}`).toBe(run.mode === 'ok' ? 'completed' : 'error');
        if (family.name === 'chat' && run.mode === 'ok' && run.stream) {
          // The key split over a tool call's argument pieces: joined and masked.
          expect(JSON.stringify(rec.output)).toContain(JSON.stringify('{"key":"***"}').slice(1, -1));
        }
      }
    }
    await record(() => app.handlers.responses.retrieve({ connectionId, id: 'resp_echo' }, CTX));
    await record(() => app.handlers.connections.test({ id: connectionId }, CTX));
    await record(() => app.handlers.models.catalogue({ connectionId, refresh: true }, CTX));
    for (const id of runIds) {
      await record(() => app.handlers.history.get({ id }, CTX));
      await record(() => app.handlers.history.events({ id, offset: 0, limit: 1000 }, CTX));
    }
    await record(() => app.handlers.history.search({ query: 'key', limit: 50 }, CTX));
    // Something in main logs what a service said (a failure quoted whole): the log masks the saved key.
    logger.scope('api').error(`the service said: ${echoShapes(KEY).join(' | ')}`);

    // The runs did happen, with the echoes in them (masked): the scan below is not vacuous.
    expect(service.seen.length).toBeGreaterThanOrEqual(FAMILIES.length * RUNS.length);
    const streamed = JSON.stringify(traffic);
    expect(streamed).toContain('Your key is ***');
    expect(readFileSync(logger.path, 'utf8')).toContain('the service said: [redacted] | Bearer [redacted]');
    // The database is still open (its WAL holds the latest pages): scanned as a crash would leave it.
    expect(readdirSync(dataDir)).toContain('workbench.db-wal');
    expect(scan(dataDir, traffic)).toEqual([]);
  });

  it('finds an echo planted in the database file, an event chunk, the log and the page traffic (the scan can fail)', () => {
    const b64 = Buffer.from(KEY).toString('base64');
    const db = new Database(join(dataDir, 'workbench.db'));
    try {
      db.pragma('busy_timeout = 5000');
      db.prepare("INSERT INTO settings (key, value_json) VALUES ('planted', ?)").run(JSON.stringify(`Basic ${Buffer.from(`u:${KEY}`).toString('base64')}`));
      const seq = (db.prepare('SELECT seq FROM runs LIMIT 1').get() as { seq: number }).seq;
      db.prepare('INSERT INTO run_event_chunks (run_seq, chunk, first_event, count, data) VALUES (?, 999, 0, 1, ?)').run(seq, encodeEventChunk([{ t: 0, data: `{"k":"${b64}"}` }]));
    } finally {
      db.close();
    }
    appendFileSync(logger.path, `planted ${encodeURIComponent(KEY)}\n`);
    const found = scan(dataDir, [...traffic, { planted: Buffer.from(KEY).toString('base64url') }]);
    expect(found.some((f) => f.startsWith(join(dataDir, 'workbench.db')))).toBe(true);
    expect(found.some((f) => f.startsWith('event chunks:'))).toBe(true);
    expect(found.some((f) => f.startsWith(logger.path))).toBe(true);
    expect(found.some((f) => f.startsWith('page traffic:'))).toBe(true);
  });

  it('masks a key that a run recorded before scrubbing still holds, when History hands it out', async () => {
    const b64 = Buffer.from(KEY).toString('base64');
    const db = new Database(join(dataDir, 'workbench.db'));
    try {
      db.pragma('busy_timeout = 5000');
      insertRun(db, newRun('leakedrun', Date.now(), `leaked old run ${KEY}`));
      appendRunEvents(db, 'leakedrun', [{ t: 1, data: `{"auth":"Basic ${Buffer.from(`u:${KEY}`).toString('base64')}"}` }]);
      updateRun(db, 'leakedrun', { status: 'completed', outputText: `old answer ${KEY}`, response: { status: 200, headers: { 'x-echo': b64 }, body: null } });
    } finally {
      db.close();
    }
    const read = [
      await app.handlers.history.get({ id: 'leakedrun' }, CTX),
      await app.handlers.history.events({ id: 'leakedrun', offset: 0, limit: 10 }, CTX),
      await app.handlers.history.search({ query: 'leaked', limit: 50 }, CTX),
    ];
    expect(JSON.stringify(read)).toContain('leaked old run ***');
    expect((read[1] as { events: unknown[] }).events).toHaveLength(1);
    expect(hits(JSON.stringify(read))).toEqual([]);
  });
});
