/** A turn's timeline with nothing in it yet (no speech, audio, marks, events or levels): tests fill in what they need. */
import type { TurnTimeline } from '@/families/realtime/lib/latency-timeline';

export const emptyTurn = (n: number, from: number, to: number): TurnTimeline => ({
  turn: n,
  metrics: { turn: n, inputEndMs: null, firstAudioMs: null, firstPlayedMs: null } as unknown as TurnTimeline['metrics'],
  from,
  to,
  speech: { start: null, end: null },
  firstAudio: null,
  firstPlayed: null,
  playback: null,
  bargeIn: null,
  truncate: null,
  events: [],
  levels: [],
});
