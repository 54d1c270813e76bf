import { describe, expect, it } from 'vitest';
import { sessionMetrics, spread, type SessionMark } from '../../../shared/session-metrics';

let index = 0;
const m = (type: SessionMark['type'], t: number, extra: Partial<SessionMark> = {}): SessionMark => ({ type, t, eventIndex: index++, ...extra });

describe('sessionMetrics', () => {
  it('measures each turn of a call from the end of the user speech: first audio, first sample played, final transcript, barge-in', () => {
    index = 0;
    const marks = [
      m('speech_started', 1_000),
      m('speech_stopped', 2_000),
      m('final_transcript', 2_150),
      m('first_audio', 2_400),
      m('first_played', 2_460),
      m('speech_started', 5_000),
      m('speech_stopped', 6_000),
      m('first_audio', 6_900),
      m('first_played', 6_950),
      m('barge_in', 7_200),
      m('speech_started', 7_200),
      m('speech_stopped', 8_000),
      m('first_audio', 8_300),
    ];
    const metrics = sessionMetrics(marks);
    expect(metrics.turns).toEqual([
      { turn: 1, inputEndMs: 2_000, firstAudioMs: 400, firstPlayedMs: 460, finalTranscriptMs: 150, bargedIn: false },
      { turn: 2, inputEndMs: 6_000, firstAudioMs: 900, firstPlayedMs: 950, finalTranscriptMs: null, bargedIn: true },
      { turn: 3, inputEndMs: 8_000, firstAudioMs: 300, firstPlayedMs: null, finalTranscriptMs: null, bargedIn: false },
    ]);
    expect(metrics.firstAudio).toEqual({ count: 3, p50: 400, p95: 900 });
    expect(metrics.firstPlayed).toEqual({ count: 2, p50: 460, p95: 950 });
    expect(metrics.timeToFirstAudioMs).toBe(2_400);
    expect(metrics.bargeIns).toBe(1);
  });

  it('streamed speech: each text sent starts a turn, its first audio is the time to first audio', () => {
    index = 0;
    const metrics = sessionMetrics([m('text_done', 100), m('first_audio', 350), m('text_done', 2_000), m('first_audio', 2_120)]);
    expect(metrics.turns.map((t) => t.firstAudioMs)).toEqual([250, 120]);
    expect(metrics.timeToFirstAudioMs).toBe(350);
  });

  it('uses the turn numbers a caller gave, and orders marks by where they sit in the timeline', () => {
    const metrics = sessionMetrics([
      { type: 'first_audio', t: 900, eventIndex: 9, turn: 4 },
      { type: 'speech_stopped', t: 500, eventIndex: 3, turn: 4 },
    ]);
    expect(metrics.turns).toMatchObject([{ turn: 4, firstAudioMs: 400 }]);
  });

  it('says nothing it was not told: no marks, no figures', () => {
    expect(sessionMetrics([])).toEqual({
      timeToFirstAudioMs: null,
      turns: [],
      firstAudio: { count: 0, p50: null, p95: null },
      firstPlayed: { count: 0, p50: null, p95: null },
      finalTranscript: { count: 0, p50: null, p95: null },
      bargeIns: 0,
    });
  });

  it('takes nearest-rank percentiles', () => {
    const values = Array.from({ length: 20 }, (_, i) => (i + 1) * 10);
    expect(spread([...values].reverse())).toEqual({ count: 20, p50: 100, p95: 190 });
    expect(spread([null, 7])).toEqual({ count: 1, p50: 7, p95: 7 });
  });
});
