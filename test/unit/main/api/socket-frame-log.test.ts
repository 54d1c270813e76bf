/**
 * The captured-frame log of a socket: a frame is held at most until the next frame of its
 * direction (a key spread over two frames is masked in both), whatever path its held tail is on.
 * A tail on a path no later frame continues (a finished item's delta, a function call's arguments)
 * used to pin its frame, and every later frame of that direction behind it, until the socket ended.
 */
import { describe, expect, it } from 'vitest';
import { SecretScrubber } from '../../../../main/api/secret-scrubber';
import { CapturedFrameLog } from '../../../../main/api/socket-frame-log';
import type { CapturedFrame, FrameDirection } from '../../../../main/api/socket-capture';

const KEY = 'sk-live/9Zq+Tf3LmW7xR2pV8nB4';
let seq = 0;
const json = (direction: FrameDirection, data: Record<string, unknown>): CapturedFrame =>
  ({ direction, at: seq, seq: seq++, bytes: JSON.stringify(data).length, kind: 'json', type: String(data.type), data }) as CapturedFrame;

/** Pushes each frame; answers the seqs the log let go after each push. */
function run(log: CapturedFrameLog, frames: CapturedFrame[]): number[][] {
  return frames.map((f) => log.push(f).map((s) => s.seq));
}

describe('CapturedFrameLog', () => {
  it('lets go of each incoming frame by the next one, through a function-call exchange', () => {
    seq = 0;
    const log = new CapturedFrameLog(new SecretScrubber([KEY]));
    // Each text ends in `s` (a key could start there), on a path no later frame uses.
    const frames = [
      json('in', { type: 'response.output_audio_transcript.delta', item_id: 'it_1', content_index: 0, delta: 'Yes' }),
      json('in', { type: 'response.function_call_arguments.delta', item_id: 'fc_1', delta: '{"city":"Pas' }),
      json('in', { type: 'response.function_call_arguments.done', item_id: 'fc_1', call_id: 'call_s', arguments: '{"city":"Pas' }),
      json('in', { type: 'response.done', response: { id: 'resp_1', status: 'completed' } }),
      json('in', { type: 'response.created', response: { id: 'resp_2', status: 'in_progress' } }),
    ];
    const released = run(log, frames);
    // By the time frame n arrives, every frame before it has been let go.
    const upTo = (n: number) => released.slice(0, n + 1).flat();
    for (let n = 1; n < frames.length; n++) expect(upTo(n), `after frame ${n}`).toEqual(expect.arrayContaining(frames.slice(0, n).map((f) => f.seq)));
    expect(released.flat()).toEqual([...new Set(released.flat())]);
    const rest = log.end().map((f) => f.seq);
    expect([...released.flat(), ...rest].sort((a, b) => a - b)).toEqual(frames.map((f) => f.seq));
  });

  it('lets go of outgoing messages by the next outgoing one (session.update, then a tool output)', () => {
    seq = 0;
    const log = new CapturedFrameLog(new SecretScrubber([KEY]));
    const update = json('out', { type: 'session.update', session: { type: 'realtime', instructions: 'Answer yes', audio: { output: { voice: 'alloys' } } } });
    const output = json('out', { type: 'conversation.item.create', item: { type: 'function_call_output', call_id: 'call_1', output: '{"temp":"hot"}' } });
    const create = json('out', { type: 'response.create' });
    const out: number[] = [];
    out.push(...log.push(update).map((f) => f.seq));
    expect(out).toEqual([]);
    // An incoming frame does not settle an outgoing one, the next outgoing one does.
    expect(log.push(json('in', { type: 'session.updated', session: {} })).every((f) => f.direction === 'in')).toBe(true);
    out.push(...log.push(output).map((f) => f.seq));
    expect(out).toContain(update.seq);
    out.push(...log.push(create).map((f) => f.seq));
    expect(out).toEqual(expect.arrayContaining([update.seq, output.seq]));
    expect(out).toEqual([...out].sort((a, b) => a - b));
  });

  it('still masks a key spread over two frames of one direction, in both', () => {
    seq = 0;
    const log = new CapturedFrameLog(new SecretScrubber([KEY]));
    const a = json('in', { type: 'response.output_text.delta', item_id: 'it_1', delta: `key ${KEY.slice(0, 12)}` });
    const b = json('in', { type: 'response.output_text.delta', item_id: 'it_1', delta: `${KEY.slice(12)} end` });
    const out = [...log.push(a), ...log.push(b), ...log.end()];
    const text = JSON.stringify(out);
    for (let i = 0; i + 6 <= KEY.length; i++) expect(text).not.toContain(KEY.slice(i, i + 6));
    expect(out.map((f) => f.seq)).toEqual([a.seq, b.seq]);
  });
});
