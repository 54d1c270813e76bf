/**
 * The `realtime` live kind against the embedded sandbox's /v1/realtime, with a real media process
 * (the socket runs there): text turns, the auto-responder's function-call loop with no window
 * attached, detach/reattach mid-call, a drop said at once and a reconnect seeded from the
 * transcript, and the recording in History. Counts, order and values only, never times.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionRecord } from '../../../shared/contract/history';
import type { RunRecord } from '../../../shared/contract/runs';
import WebSocket from 'ws';
import { createMediaChannel, webSocketFramePort } from '../../../renderer/src/bridge/media-channel';
import type { SocketLike } from '../../../renderer/src/bridge/ws-transport';
import { FrameKind } from '../../../shared/media-frames/frame';
import { PAGE_ORIGIN } from '../media/harness';
import { speechPcm, startLiveApp } from './harness';
import { attachCall, pollState } from './realtime-harness';

const CTX = { sessionId: 'test', signal: new AbortController().signal };
let env: Awaited<ReturnType<typeof startLiveApp>>;

beforeAll(async () => {
  env = await startLiveApp();
}, 60_000);
afterAll(() => env?.close());

const WEATHER = { name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

describe('realtime call live session (sandbox)', () => {
  it('answers a function call through the auto-responder with no window attached, then speaks the answer using it', async () => {
    const id = await env.app.live.start(
      'realtime',
      { microphone: { kind: 'none' }, output: { kind: 'none' }, tools: [WEATHER], autoReplies: { get_weather: { output: '{"temp":21,"unit":"C"}', latencyMs: 300 } } },
      { origin: 'window' },
    );
    const win = await attachCall(env.app, id);
    await win.until(() => win.state().status === 'live' && win.state().connection.sessionId !== null, 'connected');
    await win.attachment.control({ type: 'text', text: 'Please call get_weather for Paris.' });
    win.attachment.detach(); // the console closes: the call and its tools go on
    expect(env.app.live.summary(id)?.attachments).toBe(0);

    const done = await pollState(win.attachment.snapshot,  (s) => s.usage.responses >= 2 && s.transcript.some((e) => e.role === 'assistant' && !e.interim && /21/.test(e.text)), 'the answer using the tool output').catch((e) => { console.log(env.logs.slice(-40).join('\n')); throw e; });
    expect(env.app.live.summary(id)?.attachments).toBe(0);
    expect(done.pendingToolCalls).toEqual([]);
    expect(done.usage.responses).toBe(2); // the function call's response and the spoken answer
    expect(done.usage.outputTokens).toBeGreaterThan(0);
    expect(done.turns).toHaveLength(1);
    expect(done.transcript[0]).toMatchObject({ role: 'user', text: 'Please call get_weather for Paris.', source: 'text' });

    // A window attaching now starts from that state and sees the rest live.
    const again = await attachCall(env.app, id);
    expect(again.state().transcript).toEqual(done.transcript);
    await env.app.live.stop(id);
    await again.until(() => again.ended(), 'the end');
    expect(again.state().status).toBe('ended');

    // History: every message both ways, the tool's output among ours, the transcript as output.
    const run = (await env.app.handlers.history.get({ id: done.runId }, CTX)) as RunRecord;
    expect(run.status).toBe('completed');
    expect(run.outputPreview).toMatch(/^User: Please call get_weather for Paris\.\sModel: The get weather tool says: temp 21/);
    expect((run.output as { transcript: unknown[] }).transcript).toEqual(done.transcript);
    const session = (await env.app.handlers.history.session({ id: done.runId }, CTX)) as SessionRecord;
    expect(session.marks.filter((m) => m.type === 'response_done').length).toBe(done.usage.responses);
  }, 120_000);

  it('barge-in with page playback: speech over the answer flushes the page at once and truncates the answer at the ms the page played', async () => {
    const id = await env.app.live.start('realtime', { microphone: { kind: 'page' }, output: { kind: 'page' } }, { origin: 'window' });
    const win = await attachCall(env.app, id);
    await win.until(() => win.state().status === 'live' && win.state().streams.playback >= 0, 'connected');
    const { mic, playback } = win.state().streams;
    const info = await env.plane.channel();
    if (!info.ok || info.value.transport !== 'websocket') throw new Error(JSON.stringify(info));
    const { url, token } = info.value;
    const channel = createMediaChannel({ connect: webSocketFramePort(async () => ({ url, token }), (u, p) => new WebSocket(u, p, { origin: PAGE_ORIGIN }) as unknown as SocketLike) });

    // The page's player: plays each item's frames in real time from its first frame, reports its
    // position ~10 times a second, and on a flush frame stops and reports where it stopped.
    const decoder = new TextDecoder();
    let item: { id: string; receivedMs: number; startedAt: number } | null = null;
    let flushedReport: { itemId: string; playedMs: number } | null = null;
    let framesAfterFlush = 0;
    const playedOf = (i: NonNullable<typeof item>): number => Math.min(i.receivedMs, performance.now() - i.startedAt);
    channel.onFrame(playback, (frame) => {
      if (frame.kind === FrameKind.Data) {
        const message = JSON.parse(decoder.decode(frame.payload)) as { item?: string; flush?: string };
        if (message.item) item = { id: message.item, receivedMs: 0, startedAt: performance.now() };
        if (message.flush && item?.id === message.flush) {
          flushedReport = { itemId: item.id, playedMs: Math.round(playedOf(item)) };
          void win.attachment.control({ type: 'played', itemId: item.id, playedMs: flushedReport.playedMs, flushed: true });
          item = null;
        }
        return;
      }
      if (!item) return void (flushedReport && framesAfterFlush++);
      item.receivedMs += frame.payload.byteLength / 2 / 24;
    });
    const reporter = setInterval(() => {
      if (item) void win.attachment.control({ type: 'played', itemId: item.id, playedMs: Math.round(playedOf(item)), flushed: false }).catch(() => undefined);
    }, 100);

    // The microphone in real time: a question, silence until the answer has played a second, then speech over it.
    const question = await speechPcm(['Hello, could you tell me about the weather?'], 24_000, 1500);
    const interruption = await speechPcm(['Stop, wait a moment please.'], 24_000, 1500);
    const frameBytes = 960;
    let source = question;
    let offset = 0;
    const pacer = setInterval(() => {
      let frame = source.subarray(offset, offset + frameBytes);
      offset += frameBytes;
      if (frame.byteLength < frameBytes) frame = Buffer.alloc(frameBytes);
      if (source === question && offset >= question.byteLength && item && playedOf(item) > 1000) {
        source = interruption;
        offset = 0;
      }
      channel.send(mic, FrameKind.Audio, new Uint8Array(frame));
    }, 20);
    try {
      await win.until(() => win.state().turns.some((t) => t.bargedIn && t.truncatedAtMs !== null), 'a barge-in with its truncate', 90_000);
      await win.until(() => win.state().transcript.some((e) => e.status === 'truncated'), 'the truncated answer');
    } finally {
      clearInterval(pacer);
      clearInterval(reporter);
    }
    const state = win.state();
    const cut = state.turns.find((t) => t.bargedIn)!;
    // The truncate sent is the position the page reported when it stopped.
    expect(flushedReport).not.toBeNull();
    const truncate = win.events().find((e) => e.type === 'wire' && e.direction === 'out' && e.eventType === 'conversation.item.truncate');
    expect(truncate && truncate.type === 'wire' ? truncate.data : null).toMatchObject({ item_id: flushedReport!.itemId, content_index: 0, audio_end_ms: flushedReport!.playedMs });
    expect(cut.truncatedAtMs).toBe(flushedReport!.playedMs);
    expect(cut.assistantItemId).toBe(flushedReport!.itemId);
    expect(state.transcript.find((e) => e.itemId === flushedReport!.itemId)).toMatchObject({ status: 'truncated', truncatedAtMs: flushedReport!.playedMs });
    // Nothing of the cut answer was played after the flush.
    expect(framesAfterFlush).toBe(0);
    await env.app.live.stop(id);
    channel.close();
    const session = (await env.app.handlers.history.session({ id: state.runId }, CTX)) as SessionRecord;
    expect(session.marks.filter((m) => m.type === 'barge_in').length).toBeGreaterThanOrEqual(1);
    expect(session.marks.find((m) => m.type === 'truncated')?.data).toMatchObject({ playedMs: flushedReport!.playedMs });
  }, 150_000);
});
