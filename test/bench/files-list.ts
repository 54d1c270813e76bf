/**
 * Files list benchmark: a sandbox holding 100,000 files of one team (seeded straight into its file
 * store, with varied names, sizes, types, ages and expiries), then p50/p95 latency over HTTP of
 * `GET /v1/files` with a compound AIP-160 filter (default order and sorted by name, and a second
 * page by token), beside the unfiltered first page for scale. Run alone with `npx tsx test/bench/files-list.ts`.
 */
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../../main/sandbox/index';

const FILES = 100_000;
const WARMUP = 5;
const SAMPLES = 60;
const KEY = 'sk-bench-files';
const WORDS = ['report', 'invoice', 'photo', 'draft', 'notes', 'scan', 'summary', 'budget', 'clip', 'slides'];
const TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'text/plain', 'video/mp4', 'application/json'];
const COMPOUND = 'name:report AND (size_bytes > 500000 OR content_type = "image/png") AND NOT name:draft AND created_at >= 2026-01-01T00:00:00Z';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function time(url: string, samples = SAMPLES): Promise<{ p50Ms: number; p95Ms: number; matches: number }> {
  const headers = { authorization: `Bearer ${KEY}` };
  const times: number[] = [];
  let matches = 0;
  for (let i = 0; i < WARMUP + samples; i++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers });
    const body = (await res.json()) as { data: unknown[] };
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(body)}`);
    if (i >= WARMUP) times.push(performance.now() - t0);
    matches = body.data.length;
  }
  times.sort((a, b) => a - b);
  return { p50Ms: Number(percentile(times, 50).toFixed(2)), p95Ms: Number(percentile(times, 95).toFixed(2)), matches };
}

export async function run(): Promise<Record<string, unknown>> {
  const sandbox = await startSandbox({ keys: [{ key: KEY, team: 'team-bench' }] });
  try {
    const start = Date.UTC(2025, 0, 1);
    const span = Date.UTC(2026, 10, 1) - start;
    const seedStart = performance.now();
    for (let i = 0; i < FILES; i++) {
      const word = WORDS[(i * 7) % WORDS.length];
      const type = TYPES[(i * 13) % TYPES.length];
      sandbox.files.add({
        id: sandbox.files.newId(),
        team: 'team-bench',
        filename: `${word}-${i}.${type.split('/')[1]}`,
        bytes: (i * 7919) % 1_000_000,
        createdMs: start + Math.floor((i / FILES) * span),
        expiresAt: i % 3 === 0 ? Math.floor((start + span) / 1000) + 86_400 * 30 : null,
        contentType: type,
        purpose: 'assistants',
        userDefinedId: i % 10 === 0 ? `u-${i}` : null,
      });
    }
    const seedMs = performance.now() - seedStart;
    const base = `${sandbox.url}/v1/files`;
    const filter = encodeURIComponent(COMPOUND);
    const firstPage = await fetch(`${base}?filter=${filter}`, { headers: { authorization: `Bearer ${KEY}` } });
    const token = ((await firstPage.json()) as { pagination_token: string }).pagination_token;
    return {
      files: FILES,
      filter: COMPOUND,
      seedMs: Math.round(seedMs),
      compoundFilter: await time(`${base}?filter=${filter}`),
      compoundFilterByName: await time(`${base}?filter=${filter}&sort_by=filename&order=asc`),
      compoundFilterPage2: await time(`${base}?filter=${filter}&pagination_token=${token}`),
      noFilter: await time(`${base}?limit=100`),
    };
  } finally {
    await sandbox.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  void run().then((r) => process.stdout.write(`${JSON.stringify(r, null, 2)}\n`));
}
