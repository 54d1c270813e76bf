/**
 * What stalled this process's event loop during a session (benchmarks: a realtime call's
 * `timings`). Three views: the loop's delay histogram (perf_hooks.monitorEventLoopDelay), the
 * garbage collector's pauses (PerformanceObserver 'gc' entries, by kind), and the CPU time this
 * process used against the wall clock (a loop that is late while its process is idle was not
 * scheduled: the machine, not our code). Pauses of `longMs` or more are kept with their media
 * times, so a late frame can be matched with them. No timer of its own: it adds no wake-ups.
 */
import { monitorEventLoopDelay, PerformanceObserver, constants } from 'node:perf_hooks';
import { mediaPriority, type MediaPriority } from './priority';

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

export interface LoopProbeReport {
  wallMs: number;
  /** The process's priority (priority.ts): a figure taken at normal priority is not one taken raised. */
  priority: MediaPriority | null;
  /** This process's CPU (user + system) over the wall time, in percent of one core. */
  cpuPercent: number;
  eventLoopDelayMs: { p50: number; p99: number; max: number };
  gc: Record<string, { count: number; totalMs: number; maxMs: number }>;
  /** GC pauses of `longMs` or more: [media time at its start, ms, kind]. */
  longGc: Array<[number, number, string]>;
}

export interface LoopProbe {
  report(): LoopProbeReport;
  dispose(): void;
}

export function startLoopProbe(now: () => number, longMs = 3): LoopProbe {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  const gc: LoopProbeReport['gc'] = {};
  const longGc: LoopProbeReport['longGc'] = [];
  // performance entries count from this process's time origin; the media clock is origin + now().
  const origin = performance.timeOrigin;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      // Node puts the GC's kind in `detail` (not in the DOM's PerformanceEntry type).
      const detail = (entry as unknown as { detail?: { kind?: number } }).detail;
      const kind = GC_KINDS[detail?.kind ?? -1] ?? 'other';
      const g = (gc[kind] ??= { count: 0, totalMs: 0, maxMs: 0 });
      g.count++;
      g.totalMs += entry.duration;
      g.maxMs = Math.max(g.maxMs, entry.duration);
      if (entry.duration >= longMs && longGc.length < 1000) longGc.push([Math.round(origin + entry.startTime), Math.round(entry.duration * 10) / 10, kind]);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const startedAt = now();
  const cpu0 = process.cpuUsage();
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    report() {
      const wallMs = now() - startedAt;
      const cpu = process.cpuUsage(cpu0);
      for (const g of Object.values(gc)) {
        g.totalMs = round(g.totalMs);
        g.maxMs = round(g.maxMs);
      }
      return {
        wallMs: Math.round(wallMs),
        priority: mediaPriority(),
        cpuPercent: round(((cpu.user + cpu.system) / 1000 / wallMs) * 100),
        eventLoopDelayMs: { p50: round(histogram.percentile(50) / 1e6), p99: round(histogram.percentile(99) / 1e6), max: round(histogram.max / 1e6) },
        gc,
        longGc: [...longGc],
      };
    },
    dispose() {
      histogram.disable();
      observer.disconnect();
    },
  };
}
