// Benchmark: the call console's event log with 50,000 events, in Chromium (issue 16: "an event log
// of 50,000 events rendered with no long task over 50 ms").
//
// The app runs as a user starts it (`npm start -- --browser`, test/e2e/harness.ts) with its built-in
// sandbox. A realtime call (no microphone, no output: text turns) is started in main over the app's
// own WebSocket contract by a second "window" in this process, which drives it at full speed: a typed
// user message, then a text response (the sandbox's deltas at token delay 0), turn after turn, until
// the call has said 50,000 messages. The console in Chromium attaches to that call the way a reload
// does (sessionStorage, then `restore()`), so every message reaches its log through the real path:
// main's live session -> the page's socket -> the realtime-call store -> EventLog -> EventLogPanel.
//
// In the page a PerformanceObserver records every 'longtask' (> 50 ms) and every 'event' timing
// entry (input to next paint >= 16 ms). Phases, each timed in the page's clock:
// - arrive: the 50,000 messages coming in (the console following the newest row);
// - arrivePaced: then EVENT_LOG_PACED_S (20) seconds more at a real spoken call's ~150 messages/s
//   (reported apart as `arrivePaced`; `arrive`, at full speed, is the headline);
// - fold: five spoken answers (audio and transcript deltas folded ×N) arriving;
// - scroll: the list scrolled top to bottom, a screen per frame;
// - filter: by text (`delta`, `response.done`, cleared), by direction, by type (the list of checkboxes, EventTypeFilter);
// - json: a folded row clicked, its JSON shown;
// - export: Export JSONL until the download is there (the whole call, read from History).
// Figures: the longest long task per phase (0 = none over 50 ms), their count, the worst event
// timing, and the page's JS heap at the end. Reports; does not assert.
//
// Run alone: npx tsx test/bench/realtime-event-log-chromium.ts   (or `npx tsx test/bench/run.ts realtimeEventLogChromium`)
// EVENT_LOG_EVENTS=5000 for a short run; EVENT_LOG_ONLY=arrive stops after the two arrive phases; EVENT_LOG_PROFILE=arrive,scroll writes those phases' CPU
// profiles (Chromium's, with the built bundle's source maps beside it) to the temp folder;
// EVENT_LOG_TRACE=arrive writes that phase's timeline trace and breaks each task over 50 ms CPU down,
// and names the boxes painted (with EVENT_LOG_INVALIDATIONS=1 also what invalidated them).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { WebSocket } from 'ws';
import { createWorkbenchApi } from '../../shared/contract/bridge';
import type { LiveAttachChunk } from '../../shared/contract/live';
import { createWsTransport, type SocketLike } from '../../renderer/src/bridge/ws-transport';
import { closeAppPage, openAppPage, ROOT } from '../e2e/harness';
import { runAlone } from './run-alone';

interface PhaseFigures {
  wallMs: number;
  /** PerformanceObserver 'longtask' entries (wall time over 50 ms) that started in the phase. */
  longTasks: number;
  longestTaskMs: number;
  /**
   * The renderer main thread's longest task by the trace (toplevel RunTask): wall and thread CPU
   * time. On a loaded machine the wall time of a task is mostly waiting for a core; its CPU time
   * is the page's own work.
   */
  longestTaskCpuMs: number;
  tasksOver50CpuMs: number;
  /** Worst input-to-paint of an interaction in the phase (event timing, >= 16 ms recorded). */
  worstEventMs: number;
}

/** The renderer main thread's tasks in a Chrome trace: [wall ms, thread CPU ms] each. */
function rendererTasks(trace: Buffer): Array<[number, number]> {
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: Array<{ name: string; ph: string; pid: number; tid: number; dur?: number; tdur?: number; args?: { name?: string } }> }).traceEvents;
  const main = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  return events
    .filter((e) => e.ph === 'X' && (e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask') && main.has(`${e.pid}:${e.tid}`))
    .map((e) => [(e.dur ?? 0) / 1000, (e.tdur ?? e.dur ?? 0) / 1000]);
}

/** Each renderer main-thread task over 50 ms of CPU: its CPU and the timeline events inside it by CPU (a trace with devtools.timeline). */
function longTaskBreakdown(trace: Buffer): string[] {
  type Ev = { name: string; ph: string; pid: number; tid: number; ts: number; dur?: number; tdur?: number; args?: { name?: string } };
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: Ev[] }).traceEvents;
  const main = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const mine = events.filter((e) => e.ph === 'X' && main.has(`${e.pid}:${e.tid}`));
  const isTask = (e: Ev) => e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask';
  const out: string[] = [];
  for (const task of mine.filter((e) => isTask(e) && (e.tdur ?? 0) > 50_000)) {
    const end = task.ts + (task.dur ?? 0);
    const inside = new Map<string, number>();
    for (const e of mine) if (!isTask(e) && e.ts >= task.ts && e.ts < end) inside.set(e.name, (inside.get(e.name) ?? 0) + (e.tdur ?? e.dur ?? 0));
    const parts = [...inside.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([n, us]) => `${n} ${Math.round(us / 100) / 10}`);
    out.push(`task ${Math.round((task.tdur ?? 0) / 100) / 10} ms CPU (${Math.round((task.dur ?? 0) / 100) / 10} wall): ${parts.join(', ')}`);
  }
  return out;
}

/** Names DOM nodes by their backend id (through CDP): `DIV.class.names`, or `?` for one gone. */
async function nameNodes(page: Page, ids: number[]): Promise<Map<number, string>> {
  const cdp = await page.context().newCDPSession(page);
  const names = new Map<number, string>();
  try {
    await cdp.send('DOM.getDocument', { depth: 0 });
    for (const id of ids) {
      const node = await cdp.send('DOM.describeNode', { backendNodeId: id }).then((r) => r.node, () => null);
      const attrs = node?.attributes ?? [];
      const cls = attrs[attrs.indexOf('class') + 1] ?? '';
      names.set(id, node ? `${node.nodeName}${attrs.includes('class') ? `.${cls.split(' ').join('.')}` : ''}` : '?');
    }
  } finally {
    await cdp.detach();
  }
  return names;
}

/**
 * Where the trace's paints and layouts were: Paint events by the element painted, and Layout events
 * by their layout roots (#document: something outside every relayout boundary changed, and the
 * layout began at the page's root), each with its count and CPU.
 */
async function paintsAndLayouts(page: Page, trace: Buffer): Promise<string[]> {
  type Ev = { name: string; ph: string; tdur?: number; dur?: number; args?: { data?: { nodeId?: number }; endData?: { layoutRoots?: Array<{ nodeId: number }> } } };
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: Ev[] }).traceEvents;
  const add = (map: Map<number, { n: number; us: number; maxUs: number }>, id: number, us: number) => {
    const o = map.get(id) ?? { n: 0, us: 0, maxUs: 0 };
    map.set(id, { n: o.n + 1, us: o.us + us, maxUs: Math.max(o.maxUs, us) });
  };
  const paints = new Map<number, { n: number; us: number; maxUs: number }>();
  const layouts = new Map<number, { n: number; us: number; maxUs: number }>();
  for (const e of events) {
    if (e.ph !== 'X') continue;
    const us = e.tdur ?? e.dur ?? 0;
    if (e.name === 'Paint' && e.args?.data?.nodeId !== undefined) add(paints, e.args.data.nodeId, us);
    if (e.name === 'Layout') for (const root of e.args?.endData?.layoutRoots ?? []) add(layouts, root.nodeId, us);
  }
  const top = (map: typeof paints) => [...map.entries()].sort((a, b) => b[1].us - a[1].us).slice(0, 8);
  const names = await nameNodes(page, [...top(paints), ...top(layouts)].map(([id]) => id));
  return [
    ...top(paints).map(([id, o]) => `paint ${names.get(id)} (#${id}): ${o.n}× ${round(o.us / 1000)} ms CPU, max ${round(o.maxUs / 1000)} (nested paints count in their parent too)`),
    ...top(layouts).map(([id, o]) => `layout from ${names.get(id)} (#${id}): ${o.n}× ${round(o.us / 1000)} ms CPU, max ${round(o.maxUs / 1000)}`),
  ];
}

/** What invalidated style, layout and paint in the trace (invalidation tracking), most often first. */
function invalidationCounts(trace: Buffer): string[] {
  type Ev = { name: string; args?: { data?: { nodeName?: string; reason?: string; changedAttribute?: string; changedClass?: string } } };
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: Ev[] }).traceEvents;
  const counts = new Map<string, number>();
  for (const e of events) {
    if (!e.name.endsWith('InvalidationTracking')) continue;
    const d = e.args?.data ?? {};
    // Node names carry the node's id for list rows: drop it, so that rows of one kind add up.
    const k = `${e.name.replace('InvalidationTracking', '')} ${(d.nodeName ?? '').replace(/ id='[^']*'/, '')} ${d.reason ?? ''} ${d.changedAttribute ?? d.changedClass ?? ''}`.trim();
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, n]) => `invalidated ${n}×: ${k}`);
}

/** Collects long tasks and event timings from the first script on (before the app's own code). */
const OBSERVE = `
  window.__perf = { long: [], events: [] };
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__perf.long.push({ start: e.startTime, dur: e.duration }); }).observe({ type: 'longtask', buffered: true });
  } catch {}
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__perf.events.push({ name: e.name, start: e.startTime, dur: e.duration }); }).observe({ type: 'event', buffered: true, durationThreshold: 16 });
  } catch {}
`;

const log = (line: string) => process.stderr.write(`${line}\n`);
const round = (n: number) => Math.round(n * 10) / 10;

async function now(page: Page): Promise<number> {
  return page.evaluate(() => performance.now());
}

/** Runs `work` as one phase: the long tasks and event timings that started while it ran. */
async function phase(page: Page, name: string, work: () => Promise<void>): Promise<PhaseFigures> {
  const browser = page.context().browser()!;
  const profile = process.env.EVENT_LOG_PROFILE?.split(',').includes(name) ? await page.context().newCDPSession(page) : null;
  if (profile) {
    await profile.send('Profiler.enable');
    await profile.send('Profiler.start');
  }
  // EVENT_LOG_TRACE=<phase>: the phase's trace with the timeline's events (layout, style, script)
  // written beside the CPU profiles, and each task over 50 ms CPU broken down on stderr.
  const traced = process.env.EVENT_LOG_TRACE?.split(',').includes(name) ?? false;
// EVENT_LOG_INVALIDATIONS=1 adds invalidation tracking (what made style, layout and paint run
  // again): it slows every DOM change several-fold (script per frame 2 -> 12 ms), so its task figures
  // are not comparable.
  const invalidations = traced && process.env.EVENT_LOG_INVALIDATIONS === '1';
  const categories = ['toplevel', 'devtools.timeline', 'v8', ...(invalidations ? ['disabled-by-default-devtools.timeline.invalidationTracking'] : [])];
  await browser.startTracing(page, { categories: traced ? categories : ['toplevel'] });
  const from = await now(page);
  await work();
  // Let a task the work queued finish, then read what the observers saw.
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100)))');
  const to = await now(page);
  const trace = await browser.stopTracing();
  const tasks = rendererTasks(trace);
  if (traced) {
    writeFileSync(join(tmpdir(), `event-log-${name}.trace.json`), trace);
    for (const line of longTaskBreakdown(trace)) log(`  ${line}`);
    for (const line of await paintsAndLayouts(page, trace)) log(`  ${line}`);
    if (invalidations) for (const line of invalidationCounts(trace)) log(`  ${line}`);
  }
  if (profile) {
    const { profile: data } = (await profile.send('Profiler.stop')) as { profile: unknown };
    writeFileSync(join(tmpdir(), `event-log-${name}.cpuprofile`), JSON.stringify(data));
    await profile.detach();
  }
  const perf = (await page.evaluate('window.__perf')) as { long: Array<{ start: number; dur: number }>; events: Array<{ start: number; dur: number }> };
  const long = perf.long.filter((e) => e.start >= from && e.start < to);
  const events = perf.events.filter((e) => e.start >= from && e.start < to);
  // (A loop, not Math.max(...list): a long phase has more tasks than a call takes arguments.)
  const max = (list: number[]) => list.reduce((a, b) => Math.max(a, b), 0);
  const figures = {
    wallMs: round(to - from),
    longTasks: long.length,
    longestTaskMs: round(max(long.map((e) => e.dur))),
    longestTaskCpuMs: round(max(tasks.map((t) => t[1]))),
    tasksOver50CpuMs: tasks.filter((t) => t[1] > 50).length,
    worstEventMs: round(max(events.map((e) => e.dur))),
  };
  log(`${name} ${JSON.stringify(figures)} load ${loadavg()[0]!.toFixed(1)}`);
  return figures;
}

/** The log's "N messages · M rows shown" as numbers. */
async function logCount(page: Page): Promise<{ messages: number; rows: number }> {
  const text = (await page.locator('[data-test="log-count"]').textContent({ timeout: 1000 }).catch(() => '')) ?? '';
  const m = /([\d,]+) messages? · ([\d,]+) rows?/.exec(text);
  return m ? { messages: Number(m[1]!.replace(/,/g, '')), rows: Number(m[2]!.replace(/,/g, '')) } : { messages: 0, rows: 0 };
}

async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 600_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function run(): Promise<Record<string, unknown>> {
  const target = Number(process.env.EVENT_LOG_EVENTS ?? 50_000);
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  const opened = await openAppPage({ viewport: { width: 1400, height: 1200 }, tokenDelayMs: 0 });
  const { page, app } = opened;
  const load: number[][] = [loadavg().map(round)];
  let transport: ReturnType<typeof createWsTransport> | null = null;
  try {
    await page.addInitScript(OBSERVE);
    await page.goto(app.url);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Realtime', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Realtime call console' }).waitFor();

    // The driving window: this process on the app's own socket, as a second tab would be.
    const url = new URL(app.url);
    const token = /token=([A-Za-z0-9_-]+)/.exec(url.hash)![1]!;
    transport = createWsTransport({
      url: `ws://${url.host}/ws`,
      token,
      connect: (u, protocols) => new WebSocket(u, protocols, { origin: url.origin }) as unknown as SocketLike,
    });
    const api = createWorkbenchApi(transport);
    const { id } = await api.live.start({ kind: 'realtime', input: { microphone: { kind: 'none' }, output: { kind: 'none' }, turnDetection: null } });
    let wire = 0;
    let done = 0;
    let live = false;
    const driver = api.live.attach({ id }, (chunk: LiveAttachChunk) => {
      if (chunk.type === 'snapshot') live = (chunk.snapshot as { status?: string }).status === 'live';
      if (chunk.type !== 'event') return;
      const e = chunk.event as { type: string; eventType?: string; status?: string };
      if (e.type === 'status' && e.status === 'live') live = true;
      if (e.type === 'connected') live = true;
      if (e.type !== 'wire') return;
      wire++;
      if (e.eventType === 'response.done') done++;
    });
    await until(() => live || wire > 0, 'the call to connect', 60_000);

    // The console attaches as after a reload: the call this tab had, from sessionStorage.
    await page.evaluate(`sessionStorage.setItem('workbench.realtime.call', ${JSON.stringify(id)})`);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Realtime call console' }).waitFor();
    await page.locator('[data-test="log-count"]').waitFor();

    /** One typed turn answered in text (or aloud), waited for to its response.done. */
    const turn = async (n: number, aloud: boolean): Promise<void> => {
      const before = done;
      await driver.send({ type: 'text', text: `Question ${n}: what is the weather like in Paris today?`, respond: false });
      await driver.send({ type: 'response.create', ...(aloud ? {} : { response: { output_modalities: ['text'] } }) });
      await until(() => done > before, `response ${n}`, 60_000);
    };

    let turns = 0;
    const arrive = await phase(page, 'arrive', async () => {
      while (wire < target) await turn(turns++, false);
      await until(async () => (await logCount(page)).messages >= wire, 'the console to show every message');
    });
    load.push(loadavg().map(round));
    const afterArrive = await logCount(page);

    // The same, at the rate of a real spoken call: ~150 messages a second (20 ms appends sent, 50/s;
    // the answer's audio deltas, ~50/s; its transcript deltas and the turn's other events), on the
    // log and latency panel of the long call above (log full, hundreds of turns). The turns are
    // text answers at token delay 0, each ~60 messages at once, started so that the phase's mean rate
    // is PACED_RATE: burstier than a call's even spread, so no kinder to the page. Reported apart
    // (`arrivePaced`); the full-speed `arrive` stays the headline.
    const PACED_RATE = 150;
    const pacedSeconds = Number(process.env.EVENT_LOG_PACED_S ?? 20);
    const pacedFrom = wire;
    const arrivePaced = await phase(page, 'arrivePaced', async () => {
      const start = Date.now();
      while (Date.now() - start < pacedSeconds * 1000) {
        await turn(turns++, false);
        const due = start + ((wire - pacedFrom) / PACED_RATE) * 1000;
        if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      }
      await until(async () => (await logCount(page)).messages >= wire, 'the console to show every paced message');
    });
    const pacedMessages = wire - pacedFrom;
    const pacedRate = round(pacedMessages / (arrivePaced.wallMs / 1000));
    if (process.env.EVENT_LOG_ONLY === 'arrive') {
      await driver.cancel().catch(() => undefined);
      await api.live.stop({ id }).catch(() => undefined);
      return { events: wire, turns, arrive, arrivePaced: { ...arrivePaced, messages: pacedMessages, ratePerS: pacedRate }, load };
    }

    const fold = await phase(page, 'fold', async () => {
      for (let i = 0; i < 5; i++) await turn(turns++, true);
      await until(async () => (await logCount(page)).messages >= wire, 'the console to show the spoken answers');
    });
    const afterFold = await logCount(page);

    // A string: tsx would wrap a named arrow function in a helper the page does not have.
    const scrollDown = `new Promise((resolve) => {
      const el = document.querySelector('.log-scroller');
      el.scrollTop = 0;
      const step = () => {
        el.scrollTop += el.clientHeight;
        if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) resolve(el.scrollTop);
        else requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    })`;
    const scroll = await phase(page, 'scroll', async () => {
      await page.evaluate(scrollDown);
    });

    const filterText = page.locator('[data-test="log-filter-text"]');
    const filterByText = await phase(page, 'filterText', async () => {
      await filterText.fill('delta');
      await until(async () => (await logCount(page)).rows < afterFold.rows, 'the delta filter');
      await filterText.fill('response.done');
      await page.locator('[data-test="log-type"]').first().waitFor();
      await filterText.fill('');
      await until(async () => (await logCount(page)).rows === afterFold.rows, 'the filter cleared');
    });
    const filterByDirection = await phase(page, 'filterDirection', async () => {
      await page.getByRole('radio', { name: '→ out' }).or(page.getByRole('button', { name: '→ out' })).first().click();
      await until(async () => (await logCount(page)).rows < afterFold.rows, 'the direction filter');
      await page.getByRole('radio', { name: 'Both' }).or(page.getByRole('button', { name: 'Both' })).first().click();
      await until(async () => (await logCount(page)).rows === afterFold.rows, 'both directions');
    });
    const filterByType = await phase(page, 'filterType', async () => {
      await page.locator('[data-test="log-filter-types"]').click();
      await page.getByRole('checkbox', { name: /^response\.output_text\.delta/ }).check();
      await page.keyboard.press('Escape');
      await until(async () => (await logCount(page)).rows < afterFold.rows, 'the type filter');
    });

    const json = await phase(page, 'json', async () => {
      await page.locator('[data-test="log-row"]').first().click();
      await page.locator('[data-test="log-json"]').waitFor();
    });
    const jsonText = await page.locator('[data-test="log-json"]').innerText();

    let exportedLines = 0;
    const exported = await phase(page, 'export', async () => {
      const download = page.waitForEvent('download', { timeout: 300_000 });
      await page.locator('[data-test="log-export"]').click();
      const file = await (await download).createReadStream();
      let bytes = '';
      for await (const chunk of file) bytes += (chunk as Buffer).toString('utf8');
      exportedLines = bytes.split('\n').filter(Boolean).length;
    });
    load.push(loadavg().map(round));

    const phases = { arrive, fold, scroll, filterText: filterByText, filterDirection: filterByDirection, filterType: filterByType, json, export: exported };
    const heap = await page.evaluate(() => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? null);
    const final = await logCount(page);
    await driver.cancel().catch(() => undefined);
    await api.live.stop({ id }).catch(() => undefined);
    return {
      events: wire,
      turns,
      logMessages: final.messages,
      rowsHeld: afterArrive.rows,
      jsonFolded: /"folded": \d+/.test(jsonText),
      exportedLines,
      pageHeapMiB: heap === null ? null : round(heap / 2 ** 20),
      phases,
      /** The arrive phase again at a real call's rate (messages a second measured over it), on the long call. */
      arrivePaced: { ...arrivePaced, messages: pacedMessages, ratePerS: pacedRate },
      longestTaskMs: Math.max(...Object.values(phases).map((p) => p.longestTaskMs)),
      longestTaskCpuMs: Math.max(...Object.values(phases).map((p) => p.longestTaskCpuMs)),
      load,
    };
  } finally {
    transport?.dispose();
    await closeAppPage(opened);
  }
}

runAlone(import.meta, run);
