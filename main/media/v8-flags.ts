/**
 * V8 flags the media process is started with (browser mode's fork, Electron's utility process).
 *
 * A small young generation (1 MB semi-spaces instead of V8's 16 MB): a scavenge's pause grows with
 * what survives in the young generation, and this process's garbage (answer deltas, resampled
 * audio, frames) mostly dies young, so many small scavenges replace a few long ones. Measured
 * with test/bench/realtime-call.ts (36 s phases, raised priority, load 4-8, 2026-11-27): default,
 * 6 scavenges per phase up to 5.6-7.0 ms and a mark-compact of 5.6-8.3 ms, 1 late capture tick
 * per phase with a GC pause in it; 1 MB, 99-101 scavenges of at most 1.8-2.3 ms (53-58 ms in
 * all, ~0.15% of a core), no pause of 3 ms or more and no mark-compact. A later flag wins, so a
 * benchmark can put the default back (REALTIME_CALL_MEDIA_ARGS=--max-semi-space-size=16).
 */
export const MEDIA_V8_FLAGS: readonly string[] = ['--max-semi-space-size=1'];
