import { describe, expect, it } from 'vitest';
import { eventDirection, eventKind } from '../../../shared/captured-events';

describe('captured events', () => {
  it('reads an SSE recording (no direction, no kind) as coming in, its kind from its data', () => {
    expect(eventDirection({ t: 1, data: '{"choices":[]}' })).toBe('in');
    expect(eventKind({ t: 1, data: '{"choices":[]}' })).toBe('json');
    expect(eventKind({ t: 1, event: 'ping', data: '[DONE]' })).toBe('text');
    expect(eventKind({ t: 1, data: '{"cut off' })).toBe('text');
  });

  it('keeps what a live session recorded', () => {
    expect(eventDirection({ t: 1, data: '{}', direction: 'out' })).toBe('out');
    expect(eventKind({ t: 1, data: 'AAEC', kind: 'binary', direction: 'out' })).toBe('binary');
    expect(eventKind({ t: 1, data: '', audio: { track: 'trk_1', offsetMs: 0, durationMs: 20, bytes: 640 } })).toBe('audio');
  });
});
