/**
 * Recorded live sessions for the fake workbench (`history.session`, `history.timeline`): a
 * session record with its tracks, marks and figures computed as main does, and a timeline of
 * `events` messages both ways (every 5th an audio frame) with marks placed among them.
 */
import type { SessionRecord, SessionTrackRecord, TimelineItem } from '../../shared/contract/history';
import type { CapturedEvent } from '../../shared/contract/runs';
import { sessionMetrics, type SessionMark } from '../../shared/session-metrics';

export interface FakeSession {
  session: SessionRecord;
  timeline: TimelineItem[];
}

export function makeTrack(over: Partial<SessionTrackRecord> = {}): SessionTrackRecord {
  const id = over.id ?? `trk_${over.direction ?? 'out'}`;
  return {
    id,
    direction: 'out',
    name: 'microphone',
    sampleRate: 16_000,
    channels: 1,
    startMs: 0,
    durationMs: 4_000,
    state: 'closed',
    media: { url: `/media/${id}?t=fake`, expiresAt: null, mime: 'audio/wav', size: 128_000 },
    ...over,
  };
}

/** Event k of a fake session: its direction alternates; every 5th is an audio frame. */
export function fakeSessionEvent(k: number): CapturedEvent {
  const direction = k % 2 === 0 ? 'out' : 'in';
  const t = k * 20;
  if (k % 5 === 4) return { t, direction, kind: 'audio', data: JSON.stringify({ type: 'audio.delta' }), audio: { track: `trk_${direction}`, offsetMs: t, durationMs: 20, bytes: 640 }, event: 'audio.delta' };
  return { t, direction, kind: 'json', data: JSON.stringify({ type: direction === 'out' ? 'text.delta' : 'transcript.partial', seq: k, text: `word ${k}` }) };
}

export function makeFakeSession(over: Partial<SessionRecord> & { events?: number; marks?: SessionMark[] } = {}): FakeSession {
  const { events = 40, marks = [{ type: 'text_done', t: 100, eventIndex: 5 }, { type: 'first_audio', t: 340, eventIndex: 17 }], ...rest } = over;
  const timeline: TimelineItem[] = [];
  const sorted = [...marks].sort((a, b) => a.eventIndex - b.eventIndex);
  let m = 0;
  for (let k = 0; k <= events; k++) {
    // As main orders them: a mark recorded after k events sits before event k.
    while (m < sorted.length && sorted[m]!.eventIndex <= k) timeline.push({ at: timeline.length, mark: sorted[m++]! });
    if (k < events) timeline.push({ at: timeline.length, event: fakeSessionEvent(k) });
  }
  while (m < sorted.length) timeline.push({ at: timeline.length, mark: sorted[m++]! });
  const session: SessionRecord = {
    id: 'ses_fake',
    kind: 'tts',
    state: 'ended',
    startedAt: 1_760_000_000_000,
    endedAt: 1_760_000_004_000,
    endReason: null,
    tracks: [makeTrack(), makeTrack({ id: 'trk_in', direction: 'in', name: 'speech', sampleRate: 24_000 })],
    marks,
    metrics: sessionMetrics(marks),
    timelineTotal: timeline.length,
    ...rest,
  };
  return { session, timeline };
}
