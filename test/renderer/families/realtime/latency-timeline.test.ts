/**
 * Latency per turn as the console draws it: each turn's figures from the marks (the same maths as
 * History), its window, the VAD span, playback up to where it was cut, the server events and the
 * microphone level inside the window, and the call's p50/p95.
 */
import { describe, expect, it } from 'vitest';
import type { SessionMark } from '@shared/session-metrics';
import { decimateLevels, levelHeight, marksByTurn, percentAt, turnTimelines, type TimelineEvent } from '@/families/realtime/lib/latency-timeline';

let index = 0;
const mark = (type: SessionMark['type'], t: number, data?: Record<string, unknown>): SessionMark => ({ type, t, eventIndex: index++, ...(data ? { data } : {}) });

/** Two turns: the first answered in full, the second barged in on and cut at 420 ms played. */
function call(): SessionMark[] {
  index = 0;
  return [
    mark('speech_started', 1_000),
    mark('speech_stopped', 2_000),
    mark('first_audio', 2_300),
    mark('first_played', 2_360),
    mark('response_done', 3_500),
    mark('speech_started', 5_000),
    mark('speech_stopped', 6_000),
    mark('first_audio', 6_500),
    mark('first_played', 6_580),
    mark('speech_started', 7_000),
    mark('barge_in', 7_010),
    mark('truncated', 7_020, { playedMs: 420 }),
    mark('speech_stopped', 7_800),
    mark('first_audio', 8_000),
  ];
}

const ev = (t: number, type: string, count = 1, tLast = t, direction: 'in' | 'out' = 'in'): TimelineEvent => ({ t, tLast, type, direction, count });

describe('latency-timeline', () => {
  describe('turnTimelines()', () => {
    it("gives each turn its figures, window, VAD span, and playback up to where it stopped (an answer cut by the next turn's barge-in ends at the truncate point)", () => {
      const { turns, metrics } = turnTimelines({ marks: call() });
      expect(turns.map((t) => ({ turn: t.turn, from: t.from, to: t.to, speech: t.speech, playback: t.playback, truncate: t.truncate, bargeIn: t.bargeIn }))).toEqual([
        { turn: 1, from: 750, to: 3_750, speech: { start: 1_000, end: 2_000 }, playback: { start: 2_360, end: 3_500 }, truncate: null, bargeIn: null },
        // The barge-in is marked in turn 3 (the new speech) but cuts turn 2's answer: shown there too.
        { turn: 2, from: 4_750, to: 7_270, speech: { start: 5_000, end: 6_000 }, playback: { start: 6_580, end: 7_020 }, truncate: { t: 7_020, playedMs: 420 }, bargeIn: 7_010 },
        { turn: 3, from: 6_750, to: 8_250, speech: { start: 7_000, end: 7_800 }, playback: null, truncate: { t: 7_020, playedMs: 420 }, bargeIn: 7_010 },
      ]);
      expect(turns.map((t) => [t.metrics.firstAudioMs, t.metrics.firstPlayedMs])).toEqual([
        [300, 360],
        [500, 580],
        [200, null],
      ]);
      expect({ firstAudio: metrics.firstAudio, firstPlayed: metrics.firstPlayed, bargeIns: metrics.bargeIns }).toEqual({
        firstAudio: { count: 3, p50: 300, p95: 500 },
        firstPlayed: { count: 2, p50: 360, p95: 580 },
        bargeIns: 1,
      });
    });

    it("puts in a turn's lanes only the server events and level samples inside its window", () => {
      const events = [ev(500, 'session.created'), ev(1_000, 'input_audio_buffer.speech_started'), ev(2_300, 'response.output_audio.delta', 12, 3_400), ev(2_000, 'input_audio_buffer.append', 50, 2_000, 'out'), ev(4_000, 'ping')];
      const levels = [0, 800, 1_500, 3_700, 3_800].map((t) => ({ t, dbfs: -20 }));
      const [first] = turnTimelines({ marks: call(), events, levels }).turns;
      expect(first!.events.map((e) => e.type)).toEqual(['input_audio_buffer.speech_started', 'response.output_audio.delta']);
      expect(first!.levels.map((l) => l.t)).toEqual([800, 1_500, 3_700]);
    });

    it('fills the lanes of only the newest turns asked for', () => {
      const events = [ev(1_000, 'a'), ev(5_000, 'b'), ev(7_000, 'c')];
      const { turns } = turnTimelines({ marks: call(), events, lanesFor: 1 });
      expect(turns.map((t) => t.events.map((e) => e.type))).toEqual([[], [], ['c']]);
    });

    it('has no turns for a call with no marks', () => {
      expect(turnTimelines({ marks: [] }).turns).toEqual([]);
    });
  });

  describe('marksByTurn()', () => {
    it("follows a mark's own turn number when it has one", () => {
      index = 0;
      const grouped = marksByTurn([{ ...mark('first_audio', 10), turn: 4 }, mark('speech_started', 0)]);
      expect([...grouped.keys()].sort()).toEqual([1, 4]);
    });
  });

  describe('decimateLevels()', () => {
    it('keeps the loudest sample of each bucket, so a short peak survives', () => {
      const levels = Array.from({ length: 1_000 }, (_, i) => ({ t: i * 20, dbfs: i === 537 ? -3 : -50 }));
      const out = decimateLevels(levels, 100);
      expect(out).toHaveLength(100);
      expect(out.filter((l) => l.dbfs === -3).map((l) => l.t)).toEqual([537 * 20]);
    });
  });

  it('places times and levels on the drawing', () => {
    expect([percentAt({ from: 1_000, to: 3_000 }, 1_500), percentAt({ from: 1_000, to: 3_000 }, 9_000), percentAt({ from: 0, to: 0 }, 5)]).toEqual([25, 100, 0]);
    expect([levelHeight(-90), levelHeight(-30), levelHeight(6)]).toEqual([0, 0.5, 1]);
  });
});
