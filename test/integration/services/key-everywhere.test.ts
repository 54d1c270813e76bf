/**
 * Issue 14, items 20-22: a service that leaks the key everywhere (leaky-service.ts: SSE event
 * names, data cut over two or three events, headers, JSON and error bodies, hex in both cases,
 * base64, URL-encoded, and inside image and video result URLs), driven through the app's real
 * services. Afterwards no encoding of the key, and no piece the service cut it into, is in the
 * data folder (every file but the key store; the database and its WAL raw, and every compressed
 * cell decompressed), in what the page was sent, in history.events, in the JSONL export or in
 * the log; and the result URLs were fetched exactly as the service gave them.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../../main/app';
import { createLogger, type Logger } from '../../../main/host/log-file';
import { createFileKeyStore } from '../../../main/store/key-file';
import { ImageGenerateSchema } from '../../../shared/families/images/contract';
import type { ExportedRun } from '../../../main/services/history-export';
import type { VideoJob } from '../../../shared/families/videos/contract';
import { encodings, piecesOf, startLeakyService, type LeakyService } from './leaky-service';
import { runText } from './text-run-helper';

const KEY = 'sk-leak/Secret+Key_0123456789abcdefXYZ';
const CTX = { sessionId: 'test', signal: new AbortController().signal };

/** What must appear nowhere: the key in each encoding (each also JSON-escaped once more), and every piece the service cut it into. */
const NEEDLES = [...new Set([...Object.values(encodings(KEY)), ...piecesOf(KEY)].flatMap((f) => [f, JSON.stringify(f).slice(1, -1)]))];

function hits(where: string, text: string): string[] {
  return NEEDLES.filter((n) => text.includes(n)).map((n) => `${where}: ${n}`);
}

/** Every file under `dir` but the key store, as text (binary read as latin1: the key is ASCII). */
function files(dir: string): Array<{ path: string; text: string }> {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return name === 'keys.json' ? [] : [{ path, text: readFileSync(path).toString('latin1') }];
  });
}

/** A cell's bytes in every form it may be stored: as they are, and decompressed by whichever codec opens them. */
function cellTexts(cell: Buffer): string[] {
  const out = [cell.toString('latin1')];
  for (const open of [brotliDecompressSync, gunzipSync, inflateSync, inflateRawSync]) {
    try {
      out.push(open(cell).toString('utf8'));
    } catch {
      // Not this codec.
    }
  }
  return out;
}

/** Every cell of every table, compressed cells decompressed; and how many cells were decompressed. */
function databaseCells(path: string): { texts: Array<{ where: string; text: string }>; decompressed: number } {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  const texts: Array<{ where: string; text: string }> = [];
  let decompressed = 0;
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
    for (const table of tables) {
      for (const row of db.prepare(`SELECT * FROM "${table}"`).all() as Array<Record<string, unknown>>) {
        for (const [column, value] of Object.entries(row)) {
          const where = `${table}.${column}`;
          if (typeof value === 'string') texts.push({ where, text: value });
          else if (Buffer.isBuffer(value)) {
            const forms = cellTexts(value);
            decompressed += forms.length - 1;
            for (const text of forms) texts.push({ where, text });
          }
        }
      }
    }
  } finally {
    db.close();
  }
  return { texts, decompressed };
}

describe('a service that leaks the key into every place and encoding (items 20-22)', () => {
  let service: LeakyService;
  let dataDir: string;
  let logger: Logger;
  let app: App;
  let connectionId: string;
  const traffic: unknown[] = [];

  beforeAll(async () => {
    service = await startLeakyService();
    dataDir = mkdtempSync(join(tmpdir(), 'wb-leak-'));
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
      videoPollMs: { first: 20, max: 60 },
    });
    connectionId = (await app.handlers.connections.save({ name: 'Leaky', baseUrl: service.baseUrl, apiKey: KEY }, CTX)).id;
    await app.handlers.connections.select({ id: connectionId }, CTX);
  });

  afterAll(async () => {
    await app?.dispose();
    logger?.close();
    await service?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every encoding and every piece of the key out of the database, history.events, the export, the log and the page; result URLs are fetched as given', async () => {
    const runIds: string[] = [];
    const families = [
      { send: app.handlers.chat.send, request: { model: 'leak-1', messages: [{ role: 'user', content: 'hi' }] } },
      { send: app.handlers.messages.send, request: { model: 'leak-1', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] } },
      { send: app.handlers.responses.create, request: { model: 'leak-1', input: 'hi' } },
    ];
    for (const family of families) {
      for (const [stream, mode] of [[true, 'ok'], [false, 'ok'], [true, 'error']] as const) {
        const input = { connectionId, request: { ...family.request, stream }, headers: { 'x-leak-mode': mode } };
        const { record, chunks } = await runText(family.send as never, input);
        traffic.push(record, chunks);
        runIds.push(record.id);
        expect(record.status).toBe(mode === 'ok' ? 'completed' : 'error');
      }
    }

    // Item 22: an image whose URL holds the key is fetched at that URL; what is kept is masked.
    const image = await app.handlers.images.generate(ImageGenerateSchema.parse({ connectionId, model: 'leak-image', prompt: 'a lighthouse' }), {
      ...CTX,
      streamId: 'image',
      emit: (chunk: unknown) => traffic.push(chunk),
    } as never);
    traffic.push(image);
    expect(image.images).toHaveLength(1);
    runIds.push(image.runId);

    const created: VideoJob = await app.handlers.videos.create({ connectionId, mode: 'generate', model: 'leak-video', prompt: 'waves', duration: 3, resolution: '480p' } as never, CTX);
    await expect.poll(async () => (await app.handlers.videos.get({ id: created.id }, CTX)).state, { timeout: 15_000, interval: 20 }).toBe('done');
    const video = await app.handlers.videos.get({ id: created.id }, CTX);
    traffic.push(video);
    runIds.push(video.runId!);

    const imagePath = service.imageUrl(KEY).slice(service.baseUrl.length);
    const videoPath = service.videoUrl(KEY).slice(service.baseUrl.length);
    // Soft: a failure here still lets the scan below say what leaked.
    expect.soft(service.seen).toContain(`GET ${imagePath}`);
    expect.soft(service.seen).toContain(`GET ${videoPath}`);
    expect.soft(service.seen.filter((s) => s.startsWith('GET /cdn/') || s.startsWith('GET /media/'))).toEqual([`GET ${imagePath}`, `GET ${videoPath}`]);

    // What the inspector and an export read back.
    const shown: unknown[] = [];
    for (const id of runIds) {
      shown.push(await app.handlers.history.get({ id }, CTX));
      shown.push(await app.handlers.history.events({ id, offset: 0, limit: 1000 }, CTX));
      // A page that starts and ends inside the cut pieces reads masked too.
      shown.push(await app.handlers.history.events({ id, offset: 3, limit: 5 }, CTX));
    }
    const exported = await app.handlers.history.exportJsonl({ ids: runIds }, CTX);
    const ticket = app.downloads.take(exported.url!.slice('/downloads/'.length));
    const jsonl = readFileSync(ticket!.path, 'utf8');
    const lines = jsonl.trimEnd().split('\n').map((l) => JSON.parse(l) as ExportedRun);
    logger.scope('api').error(`the service said: ${Object.values(encodings(KEY)).join(' | ')}`);

    // Not vacuous: the leaks happened and were masked where they landed.
    expect(lines).toHaveLength(runIds.length);
    const events = lines.flatMap((l) => l.events);
    expect.soft(events.some((e) => e.event === '***')).toBe(true);
    expect.soft(events.filter((e) => e.data.includes('"content":"[***"')).length).toBeGreaterThanOrEqual(10);
    expect.soft(JSON.stringify(shown)).toContain('/cdn/***/***.png?sig=***&k=***&H=***');
    expect(readFileSync(logger.path, 'utf8')).toContain('the service said: [redacted] | [redacted]');
    const cells = databaseCells(join(dataDir, 'workbench.db'));
    expect(cells.decompressed).toBeGreaterThan(0);
    expect(readdirSync(dataDir)).toContain('workbench.db-wal');

    const found = [
      ...files(dataDir).flatMap((f) => hits(f.path, f.text)),
      ...cells.texts.flatMap((c) => hits(`cell ${c.where}`, c.text)),
      ...hits('history', JSON.stringify(shown)),
      ...hits('export', jsonl),
      ...hits('page', JSON.stringify(traffic)),
    ];
    expect(found).toEqual([]);
  });

  it('the scan finds a piece of the key in a compressed cell (it can fail)', () => {
    const planted = piecesOf(KEY).find((p) => p.length > 10)!;
    const [, decompressed] = cellTexts(brotliCompressSync(Buffer.from(`{"delta":"${planted}"}`)));
    expect(hits('cell', decompressed!)).toContain(`cell: ${planted}`);
  });
});
