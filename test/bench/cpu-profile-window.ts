// What a V8 CPU profile (`--cpu-prof`) says ran in a window of time: self time by function
// (name and file:line), the garbage collector's share, and the longest gap between samples (the
// sampler runs on its own thread: a gap much longer than the interval means the whole process
// was not running, i.e. the OS did not schedule it). Used by test/bench/realtime-call.ts
// (REALTIME_CALL_PROFILE) for each late capture tick of the media process.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface LoadedProfile {
  /** Sample times, µs on the profile's clock (CLOCK_MONOTONIC on Linux, as process.hrtime). */
  times: Float64Array;
  /** What each sample was in (a label per node id). */
  labels: string[];
}

export function loadProfile(file: string): LoadedProfile {
  const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const times = new Float64Array(p.samples.length);
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) times[i] = t += p.timeDeltas[i]!;
  const labels = p.samples.map((id) => {
    const f = byId.get(id)!.callFrame;
    const file = f.url.replace(/^.*\/(main|shared|node_modules)\//, '$1/').replace(/^node:/, '');
    return f.url ? `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}` : f.functionName;
  });
  return { times, labels };
}

export interface WindowReport {
  samples: number;
  /** ms of samples not (idle). */
  busyMs: number;
  gcMs: number;
  /** The longest time between two samples in the window (ms). */
  maxGapMs: number;
  top: Array<[string, number]>;
}

/** Self time (ms) by label in [fromUs, toUs), the top `n`. */
export function windowReport(p: LoadedProfile, fromUs: number, toUs: number, n = 5): WindowReport {
  const self = new Map<string, number>();
  let samples = 0;
  let busy = 0;
  let gc = 0;
  let maxGap = 0;
  let prev = fromUs;
  // Binary search for the window's first sample.
  let lo = 0;
  let hi = p.times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (p.times[mid]! < fromUs) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < p.times.length && p.times[i]! < toUs; i++) {
    // A sample stands for the time since the one before it.
    const ms = (p.times[i]! - (i > 0 ? Math.max(p.times[i - 1]!, fromUs) : fromUs)) / 1000;
    maxGap = Math.max(maxGap, (p.times[i]! - prev) / 1000);
    prev = p.times[i]!;
    samples++;
    const label = p.labels[i]!;
    if (label === '(idle)') continue;
    busy += ms;
    if (label === '(garbage collector)') gc += ms;
    self.set(label, (self.get(label) ?? 0) + ms);
  }
  maxGap = Math.max(maxGap, (toUs - prev) / 1000);
  const r = (x: number) => Math.round(x * 10) / 10;
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => [k, r(v)] as [string, number]);
  return { samples, busyMs: r(busy), gcMs: r(gc), maxGapMs: r(maxGap), top };
}

/** Self time (ms) by label over the whole profile, the top `n` (what the process spends its CPU on). */
export function totals(p: LoadedProfile, n = 15): Array<[string, number]> {
  return windowReport(p, p.times[0] ?? 0, (p.times.at(-1) ?? 0) + 1, n).top;
}
